# case: ct.permute on an array names the positional-only argument by number, as cuTile does
# sig: x=float32[?, ?]
# expect: 9:16: TileTypeError: Invalid argument #1 of permute(): Expected a tile, but given value has type Array[float32,(?,?):(?,?)]
import cuda.tile as ct


@ct.kernel
def k(x):
    ct.permute(x, (1, 0))
