# case: Array.slice on an axis the array does not have (rank 2: axes -2 .. 1)
# sig: x=float32[?, ?], offsets=int32[?], y=float32[?, ?], TILE=16
# expect: 11:19: TileTypeError: Axis 2 is out of range for rank 2
import cuda.tile as ct


@ct.kernel
def k(x, offsets, y, TILE: ct.Constant[int]):
    b = ct.bid(0)
    start = ct.load(offsets, index=(b,), shape=())
    seg = x.slice(2, start, start + TILE)
    t = ct.load(seg, index=(0, 0), shape=(TILE, TILE))
    ct.store(y, index=(b, 0), tile=t)
