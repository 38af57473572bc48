"""cuTile's dtypes in NumPy: storage, rounding into narrow floats, and the reference's two runs.

Values live in NumPy arrays of a storage dtype: bool, the integer dtypes and float16/32/64 as
themselves; bfloat16, tfloat32 and the float8 formats as float32 arrays holding only values the
format can represent (so ml_dtypes is not needed). Float arithmetic is computed in float64 and
rounded once into the result dtype, which is what a correctly rounded operation gives.

The reference runs a kernel twice (interpreter.py): `exact` (every operation correctly rounded,
reductions rounded once from an exact float64 sum) and `perturbed` (each inexact float result
moved by one unit in the last place with a random sign, each reduction and mma moved by its error
bound). Where the two runs agree the result does not depend on rounding; where they differ, their
distance scales the tolerance (compare.py), and integer or bool outputs are not held to one value.
"""
import math

import numpy as np


class UndefinedBehaviour(Exception):
    """The kernel does something whose result cuTile leaves undefined (integer division by zero,
    an out-of-range float-to-int conversion, a tile entirely outside its array...): the case
    cannot be compared and is counted as such."""


class NotModelled(Exception):
    """A construct the reference does not implement (a bug in the reference's coverage)."""


SIGNED = ("int8", "int16", "int32", "int64")
UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
INTEGERS = SIGNED + UNSIGNED
FLOATS = ("float16", "bfloat16", "float32", "float64")
RESTRICTED = ("tfloat32", "float8_e4m3fn", "float8_e5m2")
ALL_FLOATS = FLOATS + RESTRICTED
BOOL = "bool_"

STORAGE = {BOOL: np.bool_, "float16": np.float16, "float32": np.float32, "float64": np.float64,
           "bfloat16": np.float32, "tfloat32": np.float32, "float8_e4m3fn": np.float32,
           "float8_e5m2": np.float32}
STORAGE.update({d: getattr(np, d) for d in INTEGERS})

# (explicit mantissa bits, lowest normal exponent, largest finite value, has infinities)
FORMATS = {"float16": (10, -14, 65504.0, True), "bfloat16": (7, -126, 3.3895313892515355e38, True),
           "float32": (23, -126, 3.4028234663852886e38, True), "float64": (52, -1022, 1.7976931348623157e308, True),
           "tfloat32": (10, -126, 3.4028234663852886e38, True), "float8_e4m3fn": (3, -6, 448.0, False),
           "float8_e5m2": (2, -14, 57344.0, True)}

BITS = {BOOL: 8, "int8": 8, "int16": 16, "int32": 32, "int64": 64, "uint8": 8, "uint16": 16,
        "uint32": 32, "uint64": 64, "float16": 16, "bfloat16": 16, "float32": 32, "float64": 64,
        "tfloat32": 32, "float8_e4m3fn": 8, "float8_e5m2": 8}


def is_float(dtype):
    return dtype in ALL_FLOATS


def is_int(dtype):
    return dtype in INTEGERS


def category(dtype):
    return 0 if dtype == BOOL else (1 if dtype in INTEGERS else 2)


def int_range(dtype):
    bits = BITS[dtype]
    if dtype in UNSIGNED:
        return 0, 2 ** bits - 1
    return -(2 ** (bits - 1)), 2 ** (bits - 1) - 1


def unit_roundoff(dtype):
    return 2.0 ** -(FORMATS[dtype][0] + 1)


def _quantum(x, dtype):
    """The spacing of `dtype`'s values at the magnitude of each x (subnormals included)."""
    mant, emin, _, _ = FORMATS[dtype]
    with np.errstate(all="ignore"):
        _, e = np.frexp(np.where(np.isfinite(x) & (x != 0), x, 1.0))
    return np.ldexp(1.0, np.maximum(e - 1, emin) - mant)


def round_float(x, dtype, *, check_range=False, rounding_mode=None):
    """float64 values -> `dtype`'s storage, round to nearest even (overflow: inf where the format
    has one; float8_e4m3fn has none, and an out-of-range conversion into it is undefined).
    A directed `rounding_mode` (RZ, RM, RP) is taken as nearest, at most an ulp away, except at
    overflow, where it decides between infinity and the largest finite value."""
    x = np.asarray(x, dtype=np.float64)
    if dtype == "float64":
        return x.copy()
    if dtype in ("float32", "float16"):
        with np.errstate(all="ignore"):
            return _directed_overflow(x.astype(STORAGE[dtype]), x, dtype, rounding_mode)
    return _directed_overflow(_round_narrow(x, dtype, check_range), x, dtype, rounding_mode)


def _directed_overflow(r, x, dtype, rounding_mode):
    """IEEE directed rounding of a finite value beyond the format: RZ gives the largest finite
    value of its sign, RP does so for negative values (-inf is below them), RM for positive ones
    (seed 20261127 program 1642: cumprod with RP overflowing to -FLT_MAX on the GPU)."""
    name = getattr(rounding_mode, "name", rounding_mode)
    if name not in ("RZ", "RM", "RP"):
        return r
    biggest = FORMATS[dtype][2]
    over = np.isinf(r) & np.isfinite(x)
    to_max = over & (((x > 0) & (name in ("RZ", "RM"))) | ((x < 0) & (name in ("RZ", "RP"))))
    if not to_max.any():
        return r
    return np.where(to_max, np.copysign(biggest, x), r).astype(r.dtype)


def _round_narrow(x, dtype, check_range):
    mant, emin, biggest, has_inf = FORMATS[dtype]
    q = _quantum(x, dtype)
    with np.errstate(all="ignore"):
        r = np.rint(x / q) * q
    too_big = np.isfinite(x) & (np.abs(r) > biggest)
    if too_big.any():
        if not has_inf or check_range:
            raise UndefinedBehaviour(f"conversion of {float(x[too_big].flat[0])!r} to {dtype} is out of range")
        r = np.where(too_big, np.copysign(np.inf, x), r)
    if not has_inf and np.isinf(x).any():
        raise UndefinedBehaviour(f"conversion of an infinity to {dtype}")
    return r.astype(np.float32)


def to_float64(data):
    return np.asarray(data, dtype=np.float64)


def cast(data, src, dst):
    """astype (b.7): NumPy storage of dtype src -> storage of dst."""
    data = np.asarray(data)
    if src == dst:
        return data.copy()
    if dst == BOOL:
        return data != 0
    if src == BOOL:
        return data.astype(STORAGE[dst]) if not is_float(dst) else round_float(data.astype(np.float64), dst)
    if is_float(dst):
        if is_int(src) and BITS[src] == 64:
            # exact integer -> nearest float64 -> dst can round twice; int64 values here are small
            pass
        return round_float(data.astype(np.float64), dst, check_range=dst.startswith("float8"))
    if is_float(src):  # float -> integer: truncation, undefined when out of range
        x = data.astype(np.float64)
        lo, hi = int_range(dst)
        with np.errstate(all="ignore"):
            t = np.trunc(x)
        bad = ~np.isfinite(t) | (t < lo) | (t > hi)
        if bad.any():
            raise UndefinedBehaviour(f"conversion of {float(x[bad].flat[0])!r} to {dst} is out of range")
        if dst in ("int64", "uint64"):
            return np.array([int(v) for v in t.flat], dtype=STORAGE[dst]).reshape(t.shape)
        return t.astype(STORAGE[dst])
    return data.astype(STORAGE[dst])  # integer -> integer wraps


def wrap_int(values, dtype):
    """Python-int or int64 results of integer arithmetic, wrapped into dtype (overflow wraps)."""
    return np.asarray(values).astype(STORAGE[dtype])


class Mode:
    """Which of the two runs is in progress, and its random source for the perturbations."""

    def __init__(self, name="exact", seed=0):
        self.name = name
        self.rng = np.random.default_rng(seed)
        self.site_signs = {}
        self.fixed_sign = None

    @property
    def perturbed(self):
        """The perturbed run, or its mirror image: the same random draws with every sign turned
        (a rounding that moves up in one moves down in the other), so a discontinuous op (a
        float-to-int conversion, floor, %) sees its input moved both ways (seed 20261128 program
        157: an mma result of 15101.0 truncated to 15100 on the GPU, 15101 in the run that
        moved it up)."""
        return self.name in ("perturbed", "mirrored")

    @property
    def direction(self):
        return -1.0 if self.name == "mirrored" else 1.0

    def signs(self, shape):
        if self.fixed_sign is not None:
            return np.full(shape, self.fixed_sign)
        return self.direction * self.rng.choice(np.array([-1.0, 1.0]), size=shape)

    def systematic(self, sign):
        """A context in which every rounding moves the same way (a custom combiner's steps: its
        error grows with the number of steps, as an accumulation's bound does, instead of
        cancelling at random: seed 20261128 program 976, a float64 scan by p + q 3 ulps off)."""
        import contextlib

        @contextlib.contextmanager
        def scope():
            saved, self.fixed_sign = self.fixed_sign, sign
            try:
                yield
            finally:
                self.fixed_sign = saved
        return scope()

    def site_sign(self):
        """+1 or -1, drawn on the first call from a line of the kernel's source and kept."""
        import sys
        frame = sys._getframe(1)
        while frame is not None and not frame.f_code.co_filename.startswith("<"):
            frame = frame.f_back
        site = (frame.f_code.co_filename, frame.f_lineno) if frame is not None else None
        if site not in self.site_signs:
            self.site_signs[site] = float(self.rng.choice([-1.0, 1.0]))
        return self.direction * self.site_signs[site]


MODE = Mode()


def finish_float(exact64, dtype, *, inexact=None, rounding_mode=None, ulps=1, systematic=False):
    """A float operation's result: the float64 value rounded to dtype; in the perturbed run moved
    by `ulps` units in the last place where the rounding was inexact (`inexact` overrides that
    test, e.g. True for transcendental functions, whose GPU versions are not correctly rounded and
    move by their documented error bound: MATH_ULPS). A rounding goes either way, element by
    element; a `systematic` error (a math function's: the GPU really is off by up to its bound)
    goes the site's way for every element, to the edge of the bound (and the other edge in the
    mirrored run), so that a sum of such results sees the errors add up instead of cancelling
    (seed 20261128 program 2759: sin(a) + sin(b) 4 ulps off on the GPU, the perturbed run's +2
    and -2 ulps on two values of one binade giving back the exact sum)."""
    r = round_float(exact64, dtype, rounding_mode=rounding_mode)
    if not MODE.perturbed:
        return r
    r64 = r.astype(np.float64)
    if inexact is None:
        if dtype == "float64":  # no wider type to compare with: integers are taken as exact
            inexact = np.isfinite(r64) & (r64 != np.round(r64))
        else:
            with np.errstate(all="ignore"):
                inexact = np.isfinite(r64) & (r64 != np.asarray(exact64, dtype=np.float64))
    inexact = np.broadcast_to(np.asarray(inexact) & np.isfinite(r64) & (r64 != 0), r64.shape)
    if not inexact.any():
        return r
    signs = np.full(r64.shape, MODE.site_sign()) if systematic and MODE.fixed_sign is None else MODE.signs(r64.shape)
    moved = r64 + signs * ulps * _quantum(r64, dtype)
    return round_float(np.where(inexact, moved, r64), dtype, rounding_mode=rounding_mode)


# Maximum errors in ulps of the CUDA Math API's functions (CUDA C++ Programming Guide, "Mathematical
# Functions": single and double precision tables), full-range, without -use_fast_math; what
# tile2cu's runtime calls for each ct function. float16/bfloat16 go through float: 1 ulp.
MATH_ULPS = {
    "float32": {"exp": 2, "exp2": 2, "log": 1, "log2": 1, "sin": 2, "cos": 2, "tan": 4, "sinh": 3,
                "cosh": 2, "tanh": 2, "rsqrt": 2, "sqrt": 0, "pow": 4, "atan2": 3},
    "float64": {"exp": 1, "exp2": 1, "log": 1, "log2": 1, "sin": 2, "cos": 2, "tan": 2, "sinh": 2,
                "cosh": 1, "tanh": 1, "rsqrt": 1, "sqrt": 0, "pow": 2, "atan2": 2},
}


def math_ulps(fn, dtype):
    return MATH_ULPS.get(dtype, {}).get(fn, 1)


def perturb_by(r, dtype, bound, rounding_mode=None, exact=None):
    """The perturbed run's version of an accumulation's result (a reduction, scan or mma): moved
    by its error bound. The direction is drawn once per call site of the kernel and kept, so an
    accumulator carried through a loop (a GEMM main loop) sees its bounds add up, as a GPU's
    systematic accumulation error (tensor cores truncate the aligned products) does, instead of
    cancelling at random. A result whose bound reaches past the largest finite value may
    overflow on the GPU: the perturbed run gives the overflow (inf, or the largest finite value
    under a directed rounding_mode).

    `exact` (float64), when given, is the exact run's value: r (an order the GPU may take) moves
    so that it ends at least `bound` away from it in the site's direction. Moving r itself by the
    bound may cancel r's own rounding and land back on the exact value, which hides the
    result's sensitivity from compare.py (seed 20261128 programs 7, 443, 2035: a 1-ulp float16
    cumsum, a bfloat16 cumprod feeding exp2)."""
    if not MODE.perturbed:
        return r
    r64 = np.asarray(r, dtype=np.float64)
    bound = np.asarray(bound, dtype=np.float64)
    with np.errstate(all="ignore"):
        if exact is not None:
            gap = np.abs(r64 - np.asarray(exact, dtype=np.float64))
            bound = bound + np.where(np.isfinite(gap), gap, 0.0)
        moved = r64 + MODE.site_sign() * bound
        overflow_at = FORMATS[dtype][2] + _quantum(np.float64(FORMATS[dtype][2]), dtype) / 2
        reaches = np.isfinite(r64) & (np.abs(r64) + bound >= overflow_at)
        if FORMATS[dtype][3]:
            moved = np.where(reaches, np.copysign(2 * overflow_at, r64), moved)
    return round_float(np.where(np.isfinite(r64) & ~np.isnan(moved), moved, r64), dtype,
                       rounding_mode=rounding_mode)


def overflow_threshold(dtype):
    """The smallest magnitude that rounds to infinity in dtype (round to nearest)."""
    biggest = FORMATS[dtype][2]
    return biggest + float(_quantum(np.float64(biggest), dtype)) / 2


def smallest_subnormal(dtype):
    mant, emin, _, _ = FORMATS[dtype]
    return 2.0 ** (emin - mant)


def accumulation_depth(n):
    """How many roundings one element of an n-term sum may see on the GPU: a tree of log2(n)
    levels over per-thread sequential chunks, taken here as at most 16 long."""
    if n <= 1:
        return 1
    return min(n - 1, math.ceil(math.log2(n)) + 16)
