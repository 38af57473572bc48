# case: a name with different dtypes on the two branches, read after
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 15:36: TileTypeError: depends on path
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    if bid > 0:
        u = t
    else:
        u = t.astype(ct.float16)
    ct.store(b, index=(bid,), tile=u)
