# case: bitcast between dtypes of different widths
# sig: a=float32[?, ?], b=float16[?, ?], TILE=16
# expect: 11:9: TileTypeError: bit widths differ
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid, 0), shape=(TILE, TILE))
    s = ct.bitcast(t, ct.float16)
    ct.store(b, index=(bid, 0), tile=s)
