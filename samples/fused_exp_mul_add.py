"""Fused element-wise chain y = exp(a) * b + c on 1-D arrays.

Inputs are usually half precision (bfloat16 / float16); the chain is evaluated in float32 and
rounded once when stored, which is what an eager framework cannot do without materialising
float32 temporaries.

Persistent style: the grid is fixed (for example a few blocks per SM) and each block strides
over the tiles; blocks whose first tile is already past the end do nothing.

Launch: grid = (any positive number of blocks,)
"""
import cuda.tile as ct

COMPUTE = ct.float32


@ct.kernel(occupancy=4)
def fused_exp_mul_add(a, b, c, y, TILE: ct.Constant[int]):
    tiles = ct.num_tiles(a, 0, (TILE,))
    for t in range(ct.bid(0), tiles, ct.num_blocks(0)):
        a_tile = ct.load(a, index=(t,), shape=(TILE,), latency=4).astype(COMPUTE)
        b_tile = ct.load(b, index=(t,), shape=(TILE,), latency=4).astype(COMPUTE)
        c_tile = ct.load(c, index=(t,), shape=(TILE,), latency=4).astype(COMPUTE)
        result = ct.exp(a_tile) * b_tile + c_tile
        ct.store(y, index=(t,), tile=result.astype(y.dtype))
