"""Element-wise sum of two 1-D arrays: c = a + b.

One block per tile of TILE elements; the last tile is ragged whenever len(a) is not a multiple
of TILE, and its out-of-range lanes are simply not stored.

Launch: grid = (ct.cdiv(n, TILE),)
"""
import cuda.tile as ct


@ct.kernel
def vector_add(a, b, c, TILE: ct.Constant[int]):
    block = ct.bid(0)
    a_tile = ct.load(a, index=(block,), shape=(TILE,))
    b_tile = ct.load(b, index=(block,), shape=(TILE,))
    ct.store(c, index=(block,), tile=a_tile + b_tile)
