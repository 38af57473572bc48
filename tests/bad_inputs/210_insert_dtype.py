# case: insert needs a value of the tile's dtype (cuTile's text)
# sig: a=float32[?, ?], b=float32[?, ?], TILE=16
# expect: 11:30: TileTypeError: Cannot insert a tile of dtype float16 into a tile of dtype float32
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid, 0), shape=(TILE, TILE))
    s = ct.insert(t, (0, 0), ct.zeros((8, 8), dtype=ct.float16))
    ct.store(b, index=(bid, 0), tile=s)
