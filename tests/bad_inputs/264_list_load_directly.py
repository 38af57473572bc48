# case: a list of arrays passed where an array is expected (index into the list first)
# sig: xs=list[float32[?]], y=float32[?], TILE=16
# expect: 9:17: TileTypeError: Invalid argument #1 of load(): Expected an array, but given value is List[Array[float32,1-d]]
import cuda.tile as ct


@ct.kernel
def k(xs, y, TILE: ct.Constant[int]):
    t = ct.load(xs, index=(ct.bid(0),), shape=(TILE,))
    ct.store(y, index=(ct.bid(0),), tile=t)
