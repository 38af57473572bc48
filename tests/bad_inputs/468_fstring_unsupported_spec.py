# case: f-string spec with a fill character, which has no printf form
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:19: TileValueError: print(): unsupported format spec '*>6'
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    print(f"block {bid:*>6}")
    ct.store(b, index=(bid,), tile=t)
