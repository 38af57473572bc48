"""Histogram with atomics: hist[v] += 1 for every value v of x that is a valid bin.

Each block takes TILE values with ct.gather; lanes past the end of x read the padding value -1.
One ct.atomic_add per lane then bumps its bin. Indices are bounds-checked as unsigned, so a
negative value (the padding, or a negative input) and a value >= len(hist) touch nothing.
Counting needs no ordering with other memory, so the atomics are RELAXED.

Launch: grid = (ct.cdiv(len(x), TILE),); hist zeroed first.
"""
import cuda.tile as ct


@ct.kernel
def histogram(x, hist, TILE: ct.Constant[int]):
    lanes = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    bins = ct.gather(x, lanes, padding_value=-1)
    ct.atomic_add(hist, bins, 1, memory_order=ct.MemoryOrder.RELAXED)
