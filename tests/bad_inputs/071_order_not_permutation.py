# case: order=(0, 0) is not a permutation
# sig: a=float32[?, ?], b=float32[?, ?], TILE=16
# expect: 10:56: TileTypeError: permutation
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid, 0), shape=(TILE, TILE), order=(0, 0))
    ct.store(b, index=(bid, 0), tile=t)
