# case: Array.slice with constant bounds where stop < start
# sig: x=float32[?], y=float32[?], TILE=16
# expect: 9:37: TileTypeError: Slice stop must be greater than or equal to start, got start=8 and stop=4
import cuda.tile as ct


@ct.kernel
def k(x, y, TILE: ct.Constant[int]):
    head = x.slice(axis=0, start=8, stop=4)
    t = ct.load(head, index=(0,), shape=(TILE,))
    ct.store(y, index=(0,), tile=t)
