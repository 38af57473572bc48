# case: ct.printf with an integer conversion for a float tile
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:38: TileTypeError: ct.printf(): Format %d for arg #1 got unexpected type of Tile[float32,(16)]
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.printf("block %d: %d\n", bid, t)
    ct.store(b, index=(bid,), tile=t)
