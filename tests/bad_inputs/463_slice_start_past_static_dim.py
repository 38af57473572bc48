# case: Array.slice whose constant start lies at or past a static dim (0 <= start < N)
# sig: x=float32[?, 64], y=float32[?, 64], TILE=16
# expect: 9:23: TileTypeError: Slice start 64 is out of range for axis 1 of size 64
import cuda.tile as ct


@ct.kernel
def k(x, y, TILE: ct.Constant[int]):
    tail = x.slice(1, 64, 64)
    t = ct.load(tail, index=(0, 0), shape=(TILE, TILE))
    ct.store(y, index=(0, 0), tile=t)
