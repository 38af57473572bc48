# case: f-string float spec on an int32 scalar
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:19: TileTypeError: print(): format spec '.3f' is incompatible with dtype int32
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    print(f"block {bid:.3f}")
    ct.store(b, index=(bid,), tile=t)
