# case: Array.tiled_view with a tile shape of another rank than the array's (spec c.2.5; cuTile's text, test_tiled_view.py::test_tiled_view_rank_mismatch)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 9:25: TileTypeError: Invalid argument "tile_shape" of tiled_view(): Expected shape length to be 1, got 2
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    view = a.tiled_view((TILE, TILE), padding_mode=ct.PaddingMode.ZERO)
    t = view.load((ct.bid(0),))
    ct.store(b, index=(ct.bid(0),), tile=t)
