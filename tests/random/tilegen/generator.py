"""Random well-typed cuTile kernels (issue 26), built statement by statement in a typed model.

Each statement generator either emits a statement whose operands it has checked against the
spec's rules (dtypes.py, expressions.py) and records the values it binds, or returns False and
another one is tried. The statements live in three mixins (gen_memory.py, gen_compute.py,
gen_control.py); this class holds the shared helpers and the driver. The kernel ends with
stores of its last values. `generate(seed, index)` is deterministic: the same pair gives the
same text."""
import math
import random
from dataclasses import dataclass

from . import dtypes as dt
from .gen_compute import ComputeStatements
from .gen_control import ControlStatements
from .gen_memory import MemoryStatements
from .program import KernelBuilder, Scope, Value

MAX_INDEX = 4  # gpu_safe: the largest tile index (bid < 3, loop variables < 5); reference/inputs.py


@dataclass
class GeneratedProgram:
    name: str          # the kernel's name, unique within a run (rk<index>)
    source: str        # a complete Python module with its `# sig:` header
    signature: str     # the --sig argument


class KernelGen(MemoryStatements, ComputeStatements, ControlStatements):
    def __init__(self, rng, name, cap, gpu_safe=False):
        self.rng = rng
        self.gpu_safe = gpu_safe  # no undefined behaviour on the GPU (oracle 3; see generate())
        self.k = KernelBuilder(name)
        self.cap = cap            # most elements a tile of this kernel may have
        self.depth = 0            # nesting of loops / branches
        self.runtime_ints = []    # int32 scalar values usable as tile indices (bid, loop variables)

    # ---- helpers -------------------------------------------------------------------------------
    def chance(self, p):
        return self.rng.random() < p

    def pick_dtype(self, restricted=False):
        pool = dt.ARITHMETIC + (dt.BOOL,) + (dt.RESTRICTED if restricted else ())
        weights = [4 if d in ("float32", "float16", "int32", "bfloat16") else 1 for d in pool]
        return self.rng.choices(pool, weights)[0]

    def random_shape(self, rank, cap=None):
        cap = cap or self.cap
        max_bits = int(math.log2(cap))
        total = self.rng.randint(min(rank, max_bits), max_bits) if self.chance(0.3) else \
            self.rng.randint(0, min(max_bits, 10))
        bits = [0] * rank
        for _ in range(total if rank else 0):
            bits[self.rng.randrange(rank)] += 1
        return tuple(2 ** b for b in bits)

    def tile_op(self, name, value, args, method_p=0.5):
        """A tile operation in its method form (t.reshape(...)) or its function form (ct.reshape(t, ...))."""
        if self.chance(method_p):
            return f"{value.name}.{name}({args})"
        return f"ct.{name}({value.name}, {args})"

    def typed(self, scope, pred=lambda v: True):
        """A random value of the scope (favouring recent ones) satisfying pred, or None."""
        pool = [v for v in scope.values if v.dtype != "tfloat32" and pred(v)]
        if not pool:
            return None
        if self.chance(0.6):
            return pool[-1 - min(len(pool) - 1, int(self.rng.expovariate(0.7)))]
        return self.rng.choice(pool)

    def bind(self, scope, prefix, dtype, shape, expr):
        name = self.k.fresh(prefix)
        if dtype in dt.ALL and self.chance(0.03):
            self.k.emit(f"{name}: ct.{dtype} = {expr}")  # an annotated assignment (annotation ignored)
        else:
            self.k.emit(f"{name} = {expr}")
        return scope.add(Value(name, dtype, tuple(shape)))

    def index_entry(self):
        """A signed-integer scalar naming a tile: a runtime index (bid, a loop variable) or 0."""
        if self.runtime_ints and self.chance(0.7):
            return self.rng.choice(self.runtime_ints)
        return "0"

    def dim_text(self, d):
        """A static dimension, sometimes through a ct.Constant[int] parameter of that value."""
        if d > 1 and self.chance(0.12):
            return self.k.constant("T", d, "int")
        return str(d)

    def safe_extent(self, tile_dim, sliced=False):
        """A static extent every tile index up to MAX_INDEX reaches with at least one element."""
        return MAX_INDEX * tile_dim + (MAX_INDEX if sliced else 0) + self.rng.randint(1, tile_dim)

    def cast_text(self, name, src, dst, method=True):
        """`name.astype(dst)`; in gpu_safe mode a float converted to an integer or a float8 is
        first clamped into the target's range (out of range is undefined, b.7), NaN to the low end."""
        text = f"{name}.astype(ct.{dst})" if method else f"ct.astype({name}, ct.{dst})"
        if not self.gpu_safe or src not in dt.FLOATS + dt.RESTRICTED or src == "tfloat32":
            return text
        if dst in dt.INTEGERS:
            bits = dt.BITS[dst]
            if bits == 8:
                lo, hi = dt.int_range(dst)
            else:
                lo, hi = (0, 2 ** (bits - 1)) if dst in dt.UNSIGNED else (-2 ** (bits - 2), 2 ** (bits - 2))
            if src == "float16":
                lo, hi = max(lo, -32768), min(hi, 32768)
        elif dst in dt.RESTRICTED and src not in dt.RESTRICTED:
            hi = 448 if dst == "float8_e4m3fn" else 57344
            lo = -hi
        else:
            return text
        return f"ct.minimum(ct.maximum({name}, {float(lo)!r}), {float(hi)!r}).astype(ct.{dst})"

    def shape_arg(self, shape):
        dims = [self.dim_text(d) for d in shape]
        return "(" + dims[0] + ",)" if len(dims) == 1 else "(" + ", ".join(dims) + ")"

    # ---- driver --------------------------------------------------------------------------------
    WEIGHTS = (("gen_load", 8), ("gen_binary", 14), ("gen_unary", 6), ("gen_astype", 5),
               ("gen_where", 3), ("gen_factory", 3), ("gen_reduce", 5), ("gen_scan", 3),
               ("gen_shape_op", 8), ("gen_gather", 2), ("gen_scatter", 2), ("gen_store", 2),
               ("gen_mma", 2), ("gen_gemm_loop", 1), ("gen_for", 3), ("gen_while", 1),
               ("gen_branch", 3), ("gen_helper", 2), ("gen_early_exit", 1), ("gen_scalar", 2), ("gen_atomic", 1))

    def statement(self, scope):
        names, weights = zip(*self.WEIGHTS)
        for _ in range(20):
            if getattr(self, self.rng.choices(names, weights)[0])(scope):
                return

    def kernel(self):
        scope = Scope()
        if self.chance(0.1):  # kernel options: hints tile2cu accepts and may ignore (a.2)
            self.k.decorator_options = self.rng.choice(
                (f"occupancy={self.rng.randint(1, 4)}", "num_ctas=ct.ByTarget(sm_100=2, default=1)",
                 f"occupancy=ct.ByTarget(sm_90={self.rng.randint(1, 4)}, default=2)"))
        self.k.emit("bid = ct.bid(0)")
        scope.add(Value("bid", "int32", ()))
        self.runtime_ints.append("bid")
        if self.chance(0.2):  # a 2-D or 3-D grid
            axis = self.rng.randint(1, 2)
            self.k.emit(f"bid{axis} = ct.bid({axis})")
            scope.add(Value(f"bid{axis}", "int32", ()))
            self.runtime_ints.append(f"bid{axis}")
        self.gen_load(scope)
        self.body(scope, self.rng.randint(3, 12))
        live = [v for v in scope.values if v.name != "bid" and v.dtype != "tfloat32"]
        for value in live[-self.rng.randint(1, 3):]:
            self.store(value)
        return self.k


def generate(seed, index, big_tiles=0.1, gpu_safe=False):
    """Program `index` of the run seeded `seed`: a module with one kernel, rk<index>.

    gpu_safe: a program whose results are defined for the inputs tests/random/reference/inputs.py
    makes (oracle 3): every padding mode determined, integer // and % by nonzero literals only,
    floats clamped before conversions to integers and float8, tile indices at most MAX_INDEX
    (extent-derived loop bounds capped), atomics only on the block's own elements (bid * N +
    arange(N), 1-D grids), and an `# extents:` header telling how each array axis is reached.
    Its programs differ from the default mode's for the same seed."""
    rng = random.Random(f"{seed}:{index}" + (":gpu" if gpu_safe else ""))
    cap = 32768 if rng.random() < big_tiles else 1024
    k = KernelGen(rng, f"rk{index}", cap, gpu_safe).kernel()
    sig = k.signature()
    extents = f"# extents: {k.extents_header()}\n" if gpu_safe else ""
    source = (f"# random kernel: seed {seed}, program {index}{' (gpu_safe)' if gpu_safe else ''} "
              f"(tests/random/run_random.py)\n"
              f"# sig: {sig}\n" + extents +
              "import math\n\nimport cuda.tile as ct\n\n\n" + k.source())
    return GeneratedProgram(k.name, source, sig)
