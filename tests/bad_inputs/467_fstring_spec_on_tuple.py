# case: f-string format spec applied to a tuple
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:17: TileTypeError: f-string: cannot apply format spec to a value of type tuple
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    print(f"ids {(bid, TILE):d}")
    ct.store(b, index=(bid,), tile=t)
