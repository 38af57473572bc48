# case: a module constant of 2**64 + 1024 read as a shape wrapped to 1024; Python's ints are
# unbounded, so the range is checked where the kernel reads it as an int64
# sig: a=float32[?], b=float32[?]
# expect: 12:40: TileValueError: integer constant 18446744073709552640 is out of range of int64
import cuda.tile as ct

TILE = 18446744073709552640


@ct.kernel
def k(a, b):
    x = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    ct.store(b, index=(ct.bid(0),), tile=x)
