# case: padding must broadcast to the index shape
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:28: TileTypeError: Padding shape (32,) is not broadcastable to the index shape (16,)
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    offs = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    pad = ct.zeros((2 * TILE,), dtype=ct.float32)
    t = ct.gather(a, offs, padding_value=pad)
    ct.store(b, index=(0,), tile=t)
