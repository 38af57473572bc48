# case: two tiles within the limit broadcast to one of 2**32 elements: every tile an operation
# makes is checked, not only the shapes written as arguments
# sig: a=float32[?, ?], b=float32[?, ?]
# expect: 11:5: TileUnsupportedFeatureError: a tile of shape (65536, 65536) has 4294967296 elements; tile2cu supports at most 65536
import cuda.tile as ct


@ct.kernel
def k(a, b):
    col = ct.load(a, index=(0, 0), shape=(65536, 1))
    z = col + ct.load(a, index=(0, 0), shape=(1, 65536))
    ct.store(b, index=(0, 0), tile=z)
