# case: the @ operator (matmul) on 4-D tiles: cuTile's matmul takes 1-D, 2-D or 3-D operands
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 12:9: TileTypeError: matmul(): operands must be 1-D, 2-D or 3-D, got rank 4
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    m = t.reshape((1, 1, TILE, 1))
    p = m @ m.reshape((1, 1, 1, TILE))
    ct.store(b, index=(bid,), tile=t)
