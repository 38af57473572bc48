"""Doubling a vector, with block 0 tracing its work: a @contextlib.contextmanager helper
brackets the block's work with f-string prints (print runs once per block, from one thread).

  y[i] = 2 * x[i]

Only block 0 traces (a run-time condition), so a launch prints three lines:
  scale: block 0 starts
    sum 12.345 max 4.56e+00 over 1024 values
  scale: block 0 done

Launch: grid = (ct.cdiv(n, TILE),)
"""
import contextlib

import cuda.tile as ct


@contextlib.contextmanager
def traced(name, bid):
    tracing = bid == 0
    if tracing:
        print(f"{name}: block {bid} starts")
    yield bid, tracing
    if tracing:
        print(f"{name}: block {bid} done")


@ct.kernel
def traced_scale(x, y, TILE: ct.Constant[int]):
    with traced("scale", ct.bid(0)) as (bid, tracing):
        t = ct.load(x, index=(bid,), shape=(TILE,), padding_mode=ct.PaddingMode.ZERO)
        doubled = t * 2.0
        if tracing:
            print(f"  sum {ct.sum(doubled):.3f} max {ct.max(doubled):.2e} over {TILE} values")
        ct.store(y, index=(bid,), tile=doubled)
