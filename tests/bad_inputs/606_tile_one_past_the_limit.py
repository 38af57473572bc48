# case: a 131072-element tile (nvcc took 161 s on the vector add it makes; 1048576 took over
# 300 s and 5 GB) is past tile2cu's limit of 2**16 elements
# sig: a=float32[?], b=float32[?], TILE=131072
# expect: 10:40: TileUnsupportedFeatureError: a tile of shape (131072,) has 131072 elements; tile2cu supports at most 65536
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    x = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    ct.store(b, index=(ct.bid(0),), tile=x)
