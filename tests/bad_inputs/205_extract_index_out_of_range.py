# case: a constant extract index outside the grid of sub-tiles
# sig: a=float32[?, ?], b=float32[?, ?], TILE=16
# expect: 11:23: TileTypeError: Index 2 out of bounds at dimension #0: valid range is [0, 2)
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid, 0), shape=(TILE, TILE))
    s = ct.extract(t, (2, 0), shape=(8, 16))
    ct.store(b, index=(bid, 0), tile=s)
