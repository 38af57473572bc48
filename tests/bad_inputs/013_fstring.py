# case: f-string in a kernel (print takes values as arguments; f-strings are not parsed yet)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:11: TileUnsupportedFeatureError: f-string
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    msg = f"block {bid}"
    ct.store(b, index=(bid,), tile=t)
