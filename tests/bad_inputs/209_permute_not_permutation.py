# case: permute axes must be a permutation
# sig: a=float32[?, ?], b=float32[?, ?], TILE=16
# expect: 11:23: TileTypeError: is not a permutation
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid, 0), shape=(TILE, TILE))
    s = ct.permute(t, (1, 1))
    ct.store(b, index=(bid, 0), tile=s)
