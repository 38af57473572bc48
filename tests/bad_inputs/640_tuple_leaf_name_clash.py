# case: a tuple parameter's items are named after it (io_0, io_1): a parameter named io_0 beside it
# sig: io=(float32[?], float32[?]), io_0=float32[?], TILE=16
# expect: 8:11: TileUnsupportedFeatureError: two kernel parameters would be named 'io_0'
import cuda.tile as ct


@ct.kernel
def k(io, io_0, TILE: ct.Constant[int]):
    src, dst = io
    t = ct.load(src, index=(ct.bid(0),), shape=(TILE,))
    ct.store(dst, index=(ct.bid(0),), tile=t)
    ct.store(io_0, index=(ct.bid(0),), tile=t)
