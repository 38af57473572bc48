# case: a list of arrays indexed by a tile instead of an integer scalar
# sig: xs=list[float32[?]], y=float32[?], TILE=16
# expect: 10:12: TileTypeError: a list of arrays is indexed by an integer scalar, got Tile[int32,(16,)]
import cuda.tile as ct


@ct.kernel
def k(xs, y, TILE: ct.Constant[int]):
    i = ct.arange(TILE, dtype=ct.int32)
    x = xs[i]
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,))
    ct.store(y, index=(ct.bid(0),), tile=t)
