# case: f-string field with a !r conversion (cuTile refuses !r, !s, !a)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:19: TileSyntaxError: f-string: !r, !s, !a conversions are not supported
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    print(f"block {bid!r}")
    ct.store(b, index=(bid,), tile=t)
