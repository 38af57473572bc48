# case: a failing ct.static_assert names the assertion and its message (TileStaticAssertionError)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:5: TileStaticAssertionError: Static assertion failed: TILE must be at least 32, got 16
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.static_assert(TILE >= 32, "TILE must be at least 32, got " + str(TILE))
    ct.store(b, index=(bid,), tile=t)
