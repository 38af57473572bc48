# case: 300 does not fit the int8 tile it is added to
# sig: a=int8[?], b=int8[?], TILE=16
# expect: 11:36: TileValueError: 300
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=x + 300)
