# case: (2**32, 2**32) has 2**64 elements, which wrapped to 0 and passed the tile-size limit
# sig: a=float32[?, ?], b=float32[?, ?]
# expect: 9:17: TileUnsupportedFeatureError: a tile of shape (4294967296, 4294967296) has more than 2**63 elements
import cuda.tile as ct


@ct.kernel
def k(a, b):
    z = ct.full((2**32, 2**32), 0.0, dtype=ct.float32)
    ct.store(b, index=(0, 0), tile=z)
