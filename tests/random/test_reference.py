"""Unit tests of the NumPy reference interpreter (tests/random/reference/), on small hand-written
kernels whose results are worked out by hand in the comments. Run with pytest in an environment
that has NumPy (run_gpu_oracle.py --venv makes one; CTest random_reference runs this file)."""
import math
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
import reference  # noqa: E402
from reference import compare, ct_module, interpreter, memory, numerics as nx  # noqa: E402
from reference.tile import Tile, binary  # noqa: E402
from tilegen.generator import generate  # noqa: E402


def run(source, grid=(1, 1, 1), mode="exact", **args):
    """Runs kernel `k` of `source`; arrays given as (dtype, values); returns the buffers."""
    source = "import cuda.tile as ct\n\n" + source
    bound = {}
    for name, v in args.items():
        if isinstance(v, tuple):
            bound[name] = memory.make_buffer(np.array(v[1], dtype=nx.STORAGE[v[0]]), v[0])
        else:
            bound[name] = v
    interpreter.run(source, "k", bound, grid, mode=mode)
    return bound


def t(values, dtype):
    return Tile(np.array(values, dtype=nx.STORAGE[dtype]), dtype)


# ---- promotion (b.5) -------------------------------------------------------------------------
def test_literal_takes_the_typed_side_and_integers_wrap():
    r = binary("+", t([127, -128], "int8"), 1)          # int8 + loose int stays int8, wraps
    assert r.dtype == "int8" and r.data.tolist() == [-128, -127]


def test_categories_and_table():
    assert binary("*", t([3], "int32"), 0.5).dtype == "float32"     # int with float literal
    assert binary("+", t([True], "bool_"), 1).dtype == "int32"       # bool with int literal
    assert binary("+", t([1], "int16"), t([1.5], "float16")).dtype == "float16"
    assert binary("+", t([1], "uint64"), t([1.5], "float16")).dtype == "float16"
    assert binary("+", t([1], "bfloat16"), t([1.5], "float32")).dtype == "float32"
    assert binary("/", t([7], "int64"), t([2], "int64")).dtype == "float32"
    r = binary("*", t([1.0], "bfloat16"), 1e-5)                      # literal adapts: bf16
    assert r.dtype == "bfloat16"


def test_float16_rounds_after_each_operation():
    # 2048 + 1 is not a float16 (spacing 2 there): ties to even -> 2048; then + 1 again -> 2048
    k = """
@ct.kernel
def k(x, y):
    v = ct.load(x, index=(0,), shape=(1,))
    ct.store(y, index=(0,), tile=(v + 1.0) + 1.0)
"""
    out = run(k, x=("float16", [2048.0]), y=("float16", [0.0]))
    assert out["y"].data.tolist() == [2048.0]


# ---- integer division and modulo (c.4) --------------------------------------------------------
def test_floor_division_and_modulo_of_negative_numbers():
    a = t([-7, 7, -8, -7], "int32")
    b = t([2, -2, 3, -2], "int32")
    assert binary("//", a, b).data.tolist() == [-4, -4, -3, 3]     # rounds toward -inf
    assert binary("%", a, b).data.tolist() == [1, -1, 1, -1]       # sign of the divisor
    f = binary("%", t([-7.5, 7.5], "float32"), 2.0)
    assert f.data.tolist() == [0.5, -0.5 + 2.0]


def test_integer_division_by_zero_is_undefined():
    with pytest.raises(nx.UndefinedBehaviour):
        binary("//", t([1], "int32"), t([0], "int32"))


def test_shifts_arithmetic_for_signed_logical_for_unsigned():
    assert binary(">>", t([-16], "int8"), 2).data.tolist() == [-4]
    assert binary(">>", t([240], "uint8"), 2).data.tolist() == [60]
    assert binary("<<", t([64], "int8"), 1).data.tolist() == [-128]  # wraps


# ---- loads: padding, ragged edges, order (b.8) ------------------------------------------------
def test_ragged_load_pads_out_of_bounds_lanes():
    # tile 1 of 4 over 5 elements: element 4, then three pads
    k = """
@ct.kernel
def k(x, y, z):
    ct.store(y, index=(0,), tile=ct.load(x, index=(1,), shape=(4,), padding_mode=ct.PaddingMode.NEG_INF))
    ct.store(z, index=(0,), tile=ct.load(x, index=(1,), shape=(4,), padding_mode=ct.PaddingMode.ZERO))
"""
    out = run(k, x=("float32", [0, 1, 2, 3, 4]), y=("float32", [9] * 4), z=("float32", [9] * 4))
    assert out["y"].data.tolist() == [4.0, -math.inf, -math.inf, -math.inf]
    assert out["z"].data.tolist() == [4.0, 0.0, 0.0, 0.0]


def test_load_with_order_reads_a_transposed_tile():
    # order=(1, 0): tile axis 0 walks array axis 1, so t[u0, u1] = x[u1, u0]
    k = """
@ct.kernel
def k(x, y):
    ct.store(y, index=(0, 0), tile=ct.load(x, index=(0, 0), shape=(2, 2), order=(1, 0)))
"""
    out = run(k, x=("int32", [[1, 2], [3, 4]]), y=("int32", [[0, 0], [0, 0]]))
    assert out["y"].data.tolist() == [[1, 3], [2, 4]]


def test_slice_then_load_and_store_drops_out_of_bounds_lanes():
    k = """
@ct.kernel
def k(x, y):
    v = x.slice(0, 2, x.shape[0])
    ct.store(y, index=(1,), tile=ct.load(v, index=(0,), shape=(4,), padding_mode=ct.PaddingMode.ZERO))
"""
    # the view is x[2:6] = [12, 13, 14, 15]; stored at y[4:8], of which only y[4], y[5] exist
    out = run(k, x=("int16", [10, 11, 12, 13, 14, 15]), y=("int16", [0] * 6))
    assert out["y"].data.tolist() == [0, 0, 0, 0, 12, 13]


def test_tile_entirely_outside_is_undefined():
    k = """
@ct.kernel
def k(x, y):
    ct.store(y, index=(0,), tile=ct.load(x, index=(2,), shape=(4,), padding_mode=ct.PaddingMode.ZERO))
"""
    with pytest.raises(nx.UndefinedBehaviour):
        run(k, x=("int32", [1] * 6), y=("int32", [0] * 4))


# ---- reductions and scans (c.8, c.9) ----------------------------------------------------------
def test_reductions():
    from reference import reductions as r
    assert r.sum_(t([100, 100], "int8")).data.item() == -56            # 200 wraps in int8
    assert r.sum_(t([True, True, False], "bool_")).dtype == "int32"
    assert r.argmax(t([1, 5, 5, 2], "int32")).data.item() == 1           # ties: smallest index
    assert r.max_(t([1.0, math.nan, 3.0], "float32")).data.item() == 3.0  # NaN ignored
    assert r.argmin(t([math.nan, 2.0, 1.0], "float32")).data.item() == 2
    assert r.sum_(t([[1, 2], [3, 4]], "int32"), axis=0, keepdims=True).data.tolist() == [[4, 6]]
    assert r.prod(t([[1, 2], [3, 4]], "float32"), axis=(0, 1)).data.item() == 24.0


def test_max_of_only_nans_may_be_the_identity():
    # seed 20261127 program 1789: ct.max over a column of NaNs (log of -inf padding) gave -inf on
    # the GPU: a reduction may fold in its identity, and maxNum(-inf, NaN) is -inf
    k = """
@ct.kernel
def k(x, y, z):
    v = ct.load(x, index=(0, 0), shape=(2, 2))
    ct.store(y, index=(0,), tile=ct.max(v, axis=0))
    ct.store(z, index=(0,), tile=ct.min(v, axis=0))
"""
    nan = float("nan")
    for mode, expect_max, expect_min in (("exact", nan, nan), ("perturbed", -math.inf, math.inf)):
        out = run(k, mode=mode, x=("float32", [[nan, 1.0], [nan, nan]]), y=("float32", [0, 0]),
                  z=("float32", [0, 0]))
        assert out["y"].data[1] == 1.0 and out["z"].data[1] == 1.0
        assert np.array_equal(out["y"].data[:1], [expect_max], equal_nan=True)
        assert np.array_equal(out["z"].data[:1], [expect_min], equal_nan=True)
    bad, unstable, _ = compare.compare_array("float32", np.array([-np.inf]), np.array([nan]),
                                             np.array([-np.inf]), np.zeros(1, bool))
    assert (bad, unstable) == (0, 1)


def test_argmax_and_argmin_ignore_nans_as_cutile():
    # cuTile's test_reduction.py::test_reduce_argmaxmin_nan rows (propagate_nan=False); the last,
    # all NaN, gives 0 (tile2cu gave 2147483647 there: seed 20261128 program 2335)
    from reference import reductions as r
    nan, inf = math.nan, math.inf
    x = t([[3.0, 0.0, 4.0, 1.5, 5.0, 9.0, 2.0, 6.0], [3.0, inf, nan, 1.5, 5.0, -2.0, 2.0, 6.0],
           [nan, nan, 7.0, 1.0, nan, 8.0, nan, 0.5], [5.0, -3.0, 2.0, nan, 4.0, 0.0, -inf, 1.0],
           [nan] * 8], "float32")
    assert r.argmax(x, axis=1).data.tolist() == [5, 1, 5, 0, 0]
    assert r.argmin(x, axis=1).data.tolist() == [1, 5, 7, 6, 0]
    assert r.argmax(t([nan, -inf], "float16")).data.item() == 1      # the NaN does not tie with -inf
    assert r.argmax(x, axis=1, keepdims=True).data.shape == (5, 1)
    assert r.argmax(x).data.item() == 9                                # flat index of the inf


def test_custom_combiners_take_another_order_and_identities_when_perturbed():
    # seed 20261128 programs 584, 1977: a max scan whose prefix is all NaN gives -inf on the GPU
    # (the identity folded in: maximum(-inf, NaN) is -inf); Tile IR allows it, so the perturbed
    # run folds identities in and compare.py counts the element unstable
    k = """
@ct.kernel
def k(x, y, z):
    v = ct.load(x, index=(0,), shape=(4,))
    ct.store(y, index=(0,), tile=ct.scan(v, 0, lambda p, q: ct.maximum(p, q), float("-inf")))
    ct.store(z, index=(0,), tile=ct.reduce(v[None, :], 1, lambda p, q: ct.maximum(p, q), float("-inf")))
"""
    nan = float("nan")
    args = dict(x=("float32", [nan, nan, 2.0, 1.0]), y=("float32", [0] * 4), z=("float32", [0]))
    exact, perturbed = run(k, **args), run(k, mode="perturbed", **args)
    assert np.array_equal(exact["y"].data, [nan, nan, 2.0, 2.0], equal_nan=True)
    assert perturbed["y"].data.tolist() == [-math.inf, -math.inf, 2.0, 2.0]
    assert exact["z"].data.tolist() == [2.0] == perturbed["z"].data.tolist()
    # programs 2168, 2744: a bfloat16 sum by p + q, rounded in a tree on the GPU. 256 + 1 + 1 is
    # 256 left to right in bfloat16 (8 significant bits), 258 pairwise: the runs differ by 2
    s = """
@ct.kernel
def k(x, y):
    v = ct.load(x, index=(0,), shape=(4,))
    ct.store(y, index=(0,), tile=ct.reduce(v, 0, lambda p, q: p + q, 0)[None])
"""
    args = dict(x=("bfloat16", [256.0, 1.0, 1.0, 0.0]), y=("bfloat16", [0]))
    assert run(s, **args)["y"].data.tolist() == [256.0]
    assert abs(run(s, mode="perturbed", **args)["y"].data.item() - 256.0) >= 2.0


def test_perturbed_accumulation_ends_a_bound_away_from_the_exact_value():
    # seed 20261128 program 2035: a bfloat16 cumprod, -1.3125 * 1.09375 * 48.25 = -69.27, is
    # -69.5 rounded once and -69.0 in order; moving -69.0 by the bound (0.54) toward -69.5 landed
    # on the exact value, so the exp2 after it looked insensitive (the GPU's 2^-69 was "wrong").
    from reference import reductions as r
    v = t([-1.3125, 1.09375, 48.25], "bfloat16")
    e = r.cumprod(v, reverse=True).data.astype(float)
    assert e[0] == -69.5
    for seed in range(8):   # both site directions
        nx.MODE.__init__("perturbed", seed)
        try:
            p = r.cumprod(v, reverse=True).data.astype(float)
        finally:
            nx.MODE.__init__("exact", 0)
        assert abs(p[0] - e[0]) >= 0.5   # at least the bound (0.54), rounded to bfloat16's 0.5


def test_the_mirrored_run_moves_every_rounding_the_other_way():
    # seed 20261128 program 157: an mma result of exactly 15101 truncated to int32; the GPU's
    # (15100.99..., within the mma's bound) gave 15100. The perturbed run moved the result up
    # only; its mirror image moves it down, so the truncation shows as unstable.
    k = """
@ct.kernel
def k(a, b, y):
    acc = ct.mma(ct.load(a, index=(0, 0), shape=(1, 2)), ct.load(b, index=(0, 0), shape=(2, 1)),
                 ct.zeros((1, 1), dtype=ct.float32))
    ct.store(y, index=(0, 0), tile=acc.astype(ct.int32))
"""
    args = dict(a=("float32", [[100.0, 1.0]]), b=("float32", [[151.0], [1.0]]), y=("int32", [[0]]))
    runs = {m: run(k, mode=m, **args)["y"].data.item() for m in ("exact", "perturbed", "mirrored")}
    assert runs["exact"] == 15101 and sorted([runs["perturbed"], runs["mirrored"]]) == [15100, 15101]
    bad, unstable, _ = compare.compare_array("int32", np.array([15100]), np.array([15101]), np.array([15101]),
                                             np.zeros(1, bool), np.array([15100]))
    assert (bad, unstable) == (0, 1)


def test_math_function_errors_go_one_way_per_line():
    # seed 20261128 program 2759: sin(a) + sin(b) for two values of one binade; random signs per
    # element (+2 and -2 ulps) gave the exact sum back, where the GPU's was 4 ulps off
    k = """
@ct.kernel
def k(x, y):
    v = ct.sin(ct.load(x, index=(0,), shape=(2,)))
    ct.store(y, index=(0,), tile=ct.sum(v, axis=0, keepdims=True))
"""
    args = dict(x=("float32", [2.0, 4.0]), y=("float32", [0.0]))   # sin: 0.909, -0.757
    e = run(k, **args)["y"].data.item()
    for seed in range(4):
        source = "import cuda.tile as ct\n\n" + k
        for mode in ("perturbed", "mirrored"):
            y = memory.make_buffer(np.zeros(1, dtype=np.float32), "float32")
            interpreter.run(source, "k", {"x": memory.make_buffer(np.array([2.0, 4.0], np.float32), "float32"), "y": y},
                            (1, 1, 1), mode=mode, seed=seed)
            assert abs(y.data.item() - e) >= 2 * 2.0 ** -24   # 2 + 2 ulps of [0.5, 1), less the sum's bound


def test_partial_results_that_overflow_in_some_order_make_the_element_unstable():
    from reference import reductions as r

    def both(fn, values, dtype):
        nx.MODE.__init__("perturbed", 1)
        try:
            p = fn(t(values, dtype)).data.astype(float)
        finally:
            nx.MODE.__init__("exact", 0)
        return fn(t(values, dtype)).data.astype(float), p
    # program 2202: positives and negatives each overflow float16: inf - inf = NaN in some order
    e, p = both(r.sum_, [40000.0, 40000.0, -40000.0, -40000.0], "float16")
    assert e == 0.0 and np.isnan(p)
    # program 2958: a product whose large factors overflow together: inf in some order
    e, p = both(lambda x: r.cumprod(x, reverse=True), [300.0, 300.0, 1e-3, 1e-3], "float16")
    assert e[0] == pytest.approx(0.09, rel=1e-2) and np.isinf(p[0]) and p[3] != 0.0
    e, p = both(r.prod, [300.0, 300.0, 1e-3, 1e-3], "float16")
    assert np.isinf(p) and not np.isinf(e)
    # and where the small ones underflow to zero together, 0 is a result (float16: 6e-8 and less)
    e, p = both(r.prod, [1e-4, 1e-4, 100.0, 100.0], "float16")
    assert e == pytest.approx(1e-4, rel=1e-2) and p == 0.0


def test_scans_forward_and_reversed():
    from reference import reductions as r
    assert r.cumsum(t([1, 2, 3], "int32")).data.tolist() == [1, 3, 6]
    assert r.cumsum(t([1, 2, 3], "int32"), reverse=True).data.tolist() == [6, 5, 3]
    assert r.cumprod(t([[1, 2], [3, 4]], "float32"), axis=1).data.tolist() == [[1, 2], [3, 12]]
    k = """
@ct.kernel
def k(x, y):
    v = ct.load(x, index=(0,), shape=(4,))
    ct.store(y, index=(0,), tile=ct.scan(v, 0, lambda p, q: ct.maximum(p, q), -128, reverse=True))
"""
    out = run(k, x=("int8", [1, 7, -3, 2]), y=("int8", [0] * 4))
    assert out["y"].data.tolist() == [7, 7, 2, 2]


# ---- gather / scatter (c.2.3) -----------------------------------------------------------------
def test_perturbed_accumulations_run_in_the_dtype_and_move_one_way_per_site():
    # As in seed 20261127 program 24: a float16 cumprod whose prefix passes 65504 and comes back
    # below it (164000, 82000, 61500): rounding once from float64 gives a finite last element,
    # any float16 evaluation in order inf (the GPU's did). The perturbed run shows the overflow.
    k = """
@ct.kernel
def k(x, y):
    v = ct.load(x, index=(0,), shape=(4,))
    ct.store(y, index=(0,), tile=ct.cumprod(v, axis=0))
"""
    args = dict(x=("float16", [-4000.0, -41.0, 0.5, 0.75]), y=("float16", [0] * 4))
    exact = run(k, **args)["y"].data.astype(float).tolist()
    perturbed = run(k, mode="perturbed", **args)["y"].data.astype(float).tolist()
    assert exact[2:] == [np.inf, 61504.0] and perturbed[2:] == [np.inf, np.inf]
    # a GEMM-style loop: three mma at one line of the kernel move the same way, bounds adding up
    loop = """
@ct.kernel
def k(a, b, y):
    acc = ct.zeros((1, 1), dtype=ct.float32)
    for i in range(3):
        acc = ct.mma(ct.load(a, index=(0, 0), shape=(1, 2)), ct.load(b, index=(0, 0), shape=(2, 1)), acc)
    ct.store(y, index=(0, 0), tile=acc)
"""
    args = dict(a=("float32", [[1.0, 1.0]]), b=("float32", [[1.0], [1.0]]), y=("float32", [[0.0]]))
    moved = run(loop, mode="perturbed", **args)["y"].data.item() - 6.0
    one_bound = 2 * nx.accumulation_depth(3) * nx.unit_roundoff("float32")
    assert abs(moved) > 5 * one_bound     # bounds of 2, 4 and 6: 12 x the first call's


def test_gather_masks_and_bounds_give_the_padding():
    k = """
@ct.kernel
def k(x, y):
    i = ct.arange(4, dtype=ct.int32) - 1          # -1, 0, 1, 2: -1 is out of bounds
    ct.store(y, index=(0,), tile=ct.gather(x, i, mask=i != 1, padding_value=-5))
"""
    out = run(k, x=("int32", [10, 11, 12]), y=("int32", [0] * 4))
    assert out["y"].data.tolist() == [-5, 10, -5, 12]


def test_scatter_skips_masked_and_out_of_bounds_lanes():
    k = """
@ct.kernel
def k(y):
    i = ct.arange(4, dtype=ct.int32) * 2          # 0, 2, 4, 6: 6 is out of bounds
    ct.scatter(y, i, i + 100, mask=i != 2)
"""
    out = run(k, y=("int32", [0] * 5))
    assert out["y"].data.tolist() == [100, 0, 0, 0, 104]


def test_two_blocks_storing_different_values_make_the_element_racy():
    k = """
@ct.kernel
def k(y):
    ct.store(y, index=(0,), tile=ct.full((2,), ct.bid(0), dtype=ct.int32) + ct.arange(2, dtype=ct.int32) * 0)
"""
    out = run(k, grid=(2, 1, 1), y=("int32", [0, 0, 0]))
    assert out["y"].racy.tolist() == [True, True, False]


def test_race_between_blocks_counts_each_blocks_last_value():
    # As in seed 20261127 program 500: block 0 stores 0 then 1, block 1 stores 1 then 2 at one
    # element. Block 1's first store equals what block 0 left, but the two blocks' last values
    # (1 and 2) differ, so the GPU may keep either (it kept 1; the run order here gives 2).
    k = """
@ct.kernel
def k(y):
    b = ct.bid(0)
    for v in range(b, b + 2):
        ct.store(y, index=(0,), tile=ct.full((1,), v, dtype=ct.int32))
"""
    out = run(k, grid=(2, 1, 1), y=("int32", [0]))
    assert out["y"].data.tolist() == [2] and out["y"].racy.tolist() == [True]
    same = """
@ct.kernel
def k(y):
    ct.store(y, index=(0,), tile=ct.full((1,), ct.bid(0), dtype=ct.int32))
    ct.store(y, index=(0,), tile=ct.full((1,), 7, dtype=ct.int32))
"""
    out = run(same, grid=(2, 1, 1), y=("int32", [0]))
    assert out["y"].racy.tolist() == [False]   # every block leaves 7


def test_atomic_add_returns_old_values_and_accumulates():
    k = """
@ct.kernel
def k(y, z):
    i = ct.arange(2, dtype=ct.int32)
    old = ct.atomic_add(y, i, 5)
    old = ct.atomic_add(y, i, 5)
    ct.store(z, index=(0,), tile=old)
"""
    out = run(k, y=("int32", [1, 2]), z=("int32", [0, 0]))
    assert out["y"].data.tolist() == [11, 12] and out["z"].data.tolist() == [6, 7]


# ---- control flow, helpers, mma -----------------------------------------------------------------
def test_loops_branches_and_helpers_run_as_python():
    k = """
def h(p):
    return p * 2

@ct.kernel
def k(y, n):
    acc = ct.zeros((2,), dtype=ct.int32)
    for i in range(n):
        if i % 2 == 1:
            continue
        acc = acc + h(i)
    ct.store(y, index=(ct.bid(0),), tile=acc)
"""
    out = run(k, grid=(2, 1, 1), y=("int32", [0] * 4), n=interpreter.scalar(5, "int32"))
    assert out["y"].data.tolist() == [12, 12, 12, 12]   # 2 * (0 + 2 + 4), in both blocks' tiles


def test_mma_accumulates_exactly_and_int8_matmul_truncates():
    from reference import mma
    x = t([[1, 2], [3, 4]], "float16")
    y = t([[5, 6], [7, 8]], "float16")
    acc = t([[1, 1], [1, 1]], "float32")
    assert mma.mma(x, y, acc).data.tolist() == [[20, 23], [44, 51]]
    r = mma.matmul(t([[100, 100]], "int8"), t([[1], [1]], "int8"))   # 200 -> int8 -56
    assert r.dtype == "int8" and r.data.tolist() == [[-56]]


# ---- narrow floats ------------------------------------------------------------------------------
def test_rounding_into_narrow_formats():
    assert nx.round_float(0.3, "float8_e4m3fn").item() == 0.3125
    assert nx.round_float(1 + 2 ** -8, "bfloat16").item() == 1.0             # tie: even
    assert nx.round_float(1 + 3 * 2 ** -8, "bfloat16").item() == 1 + 2 ** -6
    assert nx.round_float(1e6, "float8_e5m2").item() == math.inf
    with pytest.raises(nx.UndefinedBehaviour):
        nx.cast(np.array([500.0]), "float32", "float8_e4m3fn")
    with pytest.raises(nx.UndefinedBehaviour):
        nx.cast(np.array([-1.0], dtype=np.float32), "float32", "uint8")
    assert nx.cast(np.array([-1.9], dtype=np.float32), "float32", "int8").tolist() == [-1]


def test_directed_rounding_overflows_to_the_largest_finite_value():
    # seed 20261127 program 1642: ct.cumprod(..., rounding_mode=RP) of float32 products beyond
    # -FLT_MAX gave -FLT_MAX on the GPU, as IEEE rounding toward +inf does
    big = 3e38
    assert nx.round_float(-2 * big, "float32", rounding_mode="RP").item() == -nx.FORMATS["float32"][2]
    assert nx.round_float(2 * big, "float32", rounding_mode="RP").item() == math.inf
    assert nx.round_float(2 * big, "bfloat16", rounding_mode="RZ").item() == nx.FORMATS["bfloat16"][2]
    assert nx.round_float(-7e4, "float16", rounding_mode="RM").item() == -math.inf
    k = """
@ct.kernel
def k(x, y, z):
    v = ct.load(x, index=(0,), shape=(2,))
    ct.store(y, index=(0,), tile=ct.cumprod(v, axis=0, rounding_mode=ct.RoundingMode.RP))
    ct.store(z, index=(0,), tile=ct.mul(v, v, rounding_mode=ct.RoundingMode.RZ))
"""
    out = run(k, x=("float32", [-big, 10.0]), y=("float32", [0, 0]), z=("float32", [0, 0]))
    fmax = nx.FORMATS["float32"][2]
    assert out["y"].data.tolist()[1] == -fmax and out["z"].data.tolist() == [fmax, 100.0]


def test_math_functions_move_by_their_documented_ulp_bound():
    # seed 20261127 program 640: tanhf (2 ulp in the CUDA Math API) then + 1.0 rounded the GPU's
    # result one ulp of 1.36 away; a one-ulp perturbation of tanh was absorbed by that rounding
    assert nx.math_ulps("tanh", "float32") == 2 and nx.math_ulps("tan", "float32") == 4
    assert nx.math_ulps("exp", "float16") == 1
    x = np.array([0.37803], dtype=np.float64)
    exact = nx.round_float(np.tanh(x), "float32").astype(float)
    nx.MODE.__init__("perturbed", 3)
    try:
        moved = nx.finish_float(np.tanh(x), "float32", inexact=True, ulps=2).astype(float)
    finally:
        nx.MODE.__init__("exact", 0)
    assert abs(moved - exact).item() == 2 * 2.0 ** -25   # two ulps at 0.36


# ---- the comparison -----------------------------------------------------------------------------
def test_compare_tolerance_scales_with_the_two_runs():
    exact = np.array([1.0, 1.0, np.nan, 5.0], dtype=np.float32)
    perturbed = np.array([1.0, 1.001, np.nan, 5.0], dtype=np.float32)
    gpu = np.array([1.0, 1.005, np.nan, 5.1], dtype=np.float32)
    bad, unstable, first = compare.compare_array("float32", gpu, exact, perturbed, np.zeros(4, bool))
    assert bad == 1 and "(3,)" in first       # 1.005 is within 8 x 0.001; 5.1 is not
    ints = compare.compare_array("int32", np.array([1, 7]), np.array([1, 2]), np.array([1, 3]),
                                 np.zeros(2, bool))
    assert ints[:2] == (0, 1)                 # element 1 depends on rounding: skipped


# ---- the generator's gpu_safe programs ----------------------------------------------------------
def test_gpu_safe_programs_run_in_the_reference_without_undefined_behaviour():
    problems = []
    for i in range(40):
        g = generate(20260, i, gpu_safe=True)
        case = reference.make_case(g.source, g.signature, i)
        try:
            reference.run_case(g.source, g.name, case)
        except reference.UndefinedBehaviour as e:
            problems.append(f"program {i}: {e}")
    assert not problems


# ---- constructs added for the spec's T1 / T2 coverage (README "Coverage against the spec") -----
def test_atan2_promotes_its_operands_like_arithmetic():
    ct = ct_module.build()
    r = ct.atan2(t([1.0, -1.0], "float16"), t([0, -1], "int32"))   # float16 with int32: float16
    assert r.dtype == "float16"
    assert r.data.astype(np.float64).tolist() == pytest.approx([math.pi / 2, -3 * math.pi / 4], abs=2e-3)
    assert ct.atan2(t([1], "int32"), 1.0).dtype == "float32"       # int with a loose float


def test_cdiv_is_exact_where_x_plus_y_minus_one_would_wrap():
    ct = ct_module.build()
    r = ct.cdiv(t([127, -128, 7, 0], "int8"), 7)                    # ceil(127 / 7) = 19
    assert r.dtype == "int8" and r.data.tolist() == [19, -18, 1, 0]
    assert ct.cdiv(t([4294967295], "uint32"), 2).data.tolist() == [2147483648]
    assert ct.cdiv(9, 4) == 3


def test_num_tiles_strides_and_dtype_tests():
    out = run("""
@ct.kernel
def k(x, y):
    n = ct.num_tiles(x, axis=1, shape=(2, 4))      # cdiv(10, 4) = 3
    m = ct.num_tiles(x, axis=0, shape=(2, 4), order="F")  # the array's axis 1: cdiv(10, 2) = 5
    s = x.strides[0]                                # 10 elements a row
    if x.dtype == ct.float32:
        c = ct.int32(n) + m * 100 + s * 10000
    else:
        c = ct.int32(0)
    ct.store(y, index=(0,), tile=ct.full((1,), c, dtype=ct.int32))
""", x=("float32", np.zeros((3, 10))), y=("int32", [0]))
    assert out["y"].data.tolist() == [100503]
