# case: cat of tiles of different dtypes
# sig: a=float32[?, ?], b=float32[?, ?], TILE=16
# expect: 11:16: TileTypeError: Expected tiles to have the same dtype: float32 != float16
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid, 0), shape=(TILE, TILE))
    s = ct.cat((t, t.astype(ct.float16)), axis=0)
    ct.store(b, index=(bid, 0), tile=s)
