# case: a global tensor read in a kernel (globals must be constants)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 14:13: TileTypeError: not a compile-time constant
import cuda.tile as ct
import torch

W = torch.zeros(4)


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    t = t + W
    ct.store(b, index=(bid,), tile=t)
