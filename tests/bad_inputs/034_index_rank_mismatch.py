# case: index of length 1 for a rank-2 array
# sig: a=float32[?, ?], b=float32[?, ?], TILE=16
# expect: 10:20: TileTypeError: Index size 1 does not match the array rank 2
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE, TILE))
    ct.store(b, index=(bid, 0), tile=t)
