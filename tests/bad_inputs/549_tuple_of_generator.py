# case: a tuple comprehension's if-condition known only at run time (cuTile unrolls it at compile time)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:18: TileTypeError: Tuple comprehension if-conditions must be statically known
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    keep = ct.bid(0) > 0
    shape = tuple(d for d in ct.static_iter((TILE,)) if keep)
    t = ct.load(a, index=(ct.bid(0),), shape=shape)
    ct.store(b, index=(ct.bid(0),), tile=t)
