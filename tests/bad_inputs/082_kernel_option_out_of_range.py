# case: @ct.kernel(occupancy=0): occupancy must be in [1, 32]
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 7:12: TileValueError: occupancy
import cuda.tile as ct


@ct.kernel(occupancy=0)
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
