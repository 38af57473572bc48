# case: the mask must be bool
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:28: TileTypeError: Invalid argument "mask" of gather(): Expected a boolean tile
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    offs = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    t = ct.gather(a, offs, mask=offs)
    ct.store(b, index=(0,), tile=t)
