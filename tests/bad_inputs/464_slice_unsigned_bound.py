# case: Array.slice with an unsigned bound (cuTile wants a signed integer)
# sig: x=float32[?], y=float32[?], n=uint32, TILE=16
# expect: 9:26: TileTypeError: Invalid slice stop: Expected a signed integer scalar or a 0D signed integer tile, got uint32 scalar
import cuda.tile as ct


@ct.kernel
def k(x, y, n: ct.uint32, TILE: ct.Constant[int]):
    head = x.slice(0, 0, n)
    t = ct.load(head, index=(0,), shape=(TILE,))
    ct.store(y, index=(0,), tile=t)
