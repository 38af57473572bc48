# case: ct.print of an array (print tiles and scalars; load the array first)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:14: TileTypeError: ct.print() cannot print Array[float32,1-d]
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.print(a, t)
    ct.store(b, index=(bid,), tile=t)
