# case: broadcast_to a shape the tile cannot stretch to
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:9: TileTypeError: broadcast
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    u = ct.broadcast_to(t, (8,))
    ct.store(b, index=(bid,), tile=t)
