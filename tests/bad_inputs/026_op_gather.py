# case: ct.gather needs an array, not a tile
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 12:19: TileTypeError: Invalid argument #1 of gather(): Expected an array
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    offs = ct.arange(TILE, dtype=ct.int32)
    g = ct.gather(t, offs)
    t = t + g
    ct.store(b, index=(bid,), tile=t)
