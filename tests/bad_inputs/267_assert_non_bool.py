# case: ct.assert_ on a float tile (it checks a bool tile: compare first)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:16: TileTypeError: ct.assert_() expects a bool tile or scalar, got Tile[float32,(16,)]
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.assert_(t, "t must be non-zero")
    ct.store(b, index=(bid,), tile=t)
