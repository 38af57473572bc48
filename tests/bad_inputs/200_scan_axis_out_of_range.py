# case: cumsum along an axis the tile does not have
# sig: a=float32[?, ?], b=float32[?, ?], TILE=16
# expect: 11:22: TileTypeError: Axis 2 is out of range for rank 2
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid, 0), shape=(TILE, TILE))
    s = ct.cumsum(t, axis=2)
    ct.store(b, index=(bid, 0), tile=s)
