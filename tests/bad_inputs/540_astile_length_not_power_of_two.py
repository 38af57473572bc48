# case: ct.astile of a tuple whose length is not a power of two (tile dims are powers of two)
# sig: a=float32[?], TILE=16
# expect: 9:19: TileTypeError: Tuple length 3 at value is not a power of 2
import cuda.tile as ct


@ct.kernel
def k(a, TILE: ct.Constant[int]):
    t = ct.astile((1.0, 2.0, 3.0), dtype=ct.float32)
    ct.store(a, index=(ct.bid(0),), tile=t)
