# case: transpose of a 3-D tile needs both axes
# sig: a=float32[?, ?], b=float32[?, ?, ?], TILE=16
# expect: 11:9: TileTypeError: needs axis0 and axis1
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid, 0), shape=(TILE, TILE))
    s = ct.transpose(t.reshape((2, 8, 16)))
    ct.store(b, index=(bid, 0, 0), tile=s)
