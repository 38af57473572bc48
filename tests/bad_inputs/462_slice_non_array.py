# case: .slice on a tile (only arrays have views; tiles use ct.extract)
# sig: x=float32[?], y=float32[?], TILE=16
# expect: 10:9: TileTypeError: Tile[float32,(16,)] has no attribute 'slice'
import cuda.tile as ct


@ct.kernel
def k(x, y, TILE: ct.Constant[int]):
    t = ct.load(x, index=(0,), shape=(TILE,))
    u = t.slice(0, 0, 8)
    ct.store(y, index=(0,), tile=u)
