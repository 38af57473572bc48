# Kernels for tests/gpu/check_debug.py: ct.print / print / ct.printf / ct.assert_ on the device.
import contextlib

import cuda.tile as ct


@contextlib.contextmanager
def labelled(bid):
    print(f"enter {bid}")
    yield bid * 2
    print(f"exit {bid}")


@ct.kernel
def print_demo(x, n: int, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    print("block", bid, "of", ct.num_blocks(0), "n =", n)
    ct.print("tile", bid, t)
    ct.printf("sum %d %.3f\n", bid, ct.sum(t))
    with labelled(bid) as twice:
        print(f"fmt {bid:>3}|{twice:03d}|{ct.sum(t):.2f}|{TILE}|{n:x}")


@ct.kernel
def assert_demo(x, TILE: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0),), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
    ct.assert_(t >= 0.0, "inputs must be non-negative")
