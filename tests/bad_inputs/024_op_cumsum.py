# case: ct.cumsum takes one tile, not a tuple (as cuTile; ct.scan and ct.reduce take a tuple)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:19: TileTypeError: Invalid argument #1 of cumsum(): Expected a tile, but given value is
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    s = ct.cumsum((t, t))
    t = t - s
    ct.store(b, index=(bid,), tile=t)
