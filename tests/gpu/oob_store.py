"""A planted bug for tests/gpu/sanitizer_demo.sh: this kernel trusts the shapes it is given.

The host (oob_store_main.cu) passes `y` as a view claiming 1024 elements over an allocation of
1000, so the masked store below writes 24 elements past the end of `y`. compute-sanitizer's
memcheck catches the write; with `tile2cu --line-directives` and `nvcc -lineinfo` its report
names this file and the line of the store.
"""
import cuda.tile as ct


@ct.kernel
def oob_copy(x, y, TILE: ct.Constant[int]):
    block = ct.bid(0)
    t = ct.load(x, index=(block,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(y, index=(block,), tile=t + 1.0)  # PLANTED: out of bounds when y's shape lies
