# case: a constant mask must be a bool (True / False mask every lane alike; 1 is no mask)
# sig: x=float32[?], y=float32[?]
# expect: 10:31: TileTypeError: Invalid argument "mask" of gather(): Expected a boolean tile
import cuda.tile as ct


@ct.kernel
def k(x, y):
    indices = ct.arange(8, dtype=ct.int32)
    t = ct.gather(x, indices, mask=1, padding_value=-1.0)
    ct.scatter(y, indices, t)
