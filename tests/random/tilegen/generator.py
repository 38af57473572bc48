"""Random well-typed cuTile kernels (issue 26), built statement by statement in a typed model.

Each statement generator either emits a statement whose operands it has checked against the
spec's rules (dtypes.py, expressions.py) and records the values it binds, or returns False and
another one is tried. The kernel ends with stores of its last values, so nothing it computes is
dead. `generate(seed, index)` is deterministic: the same pair gives the same text."""
import math
import random
from dataclasses import dataclass

from . import dtypes as dt
from . import expressions as ex
from .program import KernelBuilder, Scope, Value, broadcast, shape_text

PADDINGS_FLOAT = ("ZERO", "NEG_ZERO", "NAN", "POS_INF", "NEG_INF", "UNDETERMINED")
PADDINGS_OTHER = ("ZERO", "UNDETERMINED")
SCALAR_DTYPES = ("int32", "int64", "float32", "float64", "float16")
# Operand dtypes of mma with their accumulators (c.11), f8 and tf32 included.
MMA_OPERANDS = tuple(dt.MMA_ACC)


@dataclass
class GeneratedProgram:
    name: str          # the kernel's name, unique within a run (rk<index>)
    source: str        # a complete Python module with its `# sig:` header
    signature: str     # the --sig argument


class KernelGen:
    def __init__(self, rng, name, cap):
        self.rng = rng
        self.k = KernelBuilder(name)
        self.cap = cap            # most elements a tile of this kernel may have
        self.depth = 0            # nesting of loops / branches
        self.in_loop = False
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

    def shape_arg(self, shape):
        dims = [self.dim_text(d) for d in shape]
        return "(" + dims[0] + ",)" if len(dims) == 1 else "(" + ", ".join(dims) + ")"

    # ---- memory --------------------------------------------------------------------------------
    def gen_load(self, scope, dtype=None, shape=None, index=None):
        dtype = dtype or self.pick_dtype(restricted=self.chance(0.1))
        shape = shape or self.random_shape(self.rng.randint(1, 4))
        rank = len(shape)
        order = None
        if rank >= 2 and self.chance(0.2):
            order = list(range(rank))
            self.rng.shuffle(order)
        index = index or [self.index_entry() for _ in range(rank)]
        # Array axis order[k] is walked by tile axis k; some extents are static (ragged or not).
        dims = ["?"] * rank
        for k in range(rank):
            if self.chance(0.15):
                axis = order[k] if order else k
                dims[axis] = self.rng.randint(1, 3 * shape[k])
        quals = " align16 contiguous" if self.chance(0.1) else ""
        array = self.k.array("x", dtype, dims, quals)
        args = [array]
        if rank == 1 and self.chance(0.15):
            args += [f"index={index[0]}", f"shape={self.dim_text(shape[0])}"]
        else:
            args += [f"index=({', '.join(index)}{',' if rank == 1 else ''})", f"shape={self.shape_arg(shape)}"]
        if order:
            args.append('order="F"' if order == [1, 0] and self.chance(0.3) else f"order={tuple(order)}")
        paddings = PADDINGS_FLOAT if dt.is_float(dtype) else PADDINGS_OTHER
        padding = self.rng.choice(paddings) if self.chance(0.7) else None
        if padding:
            args.append(f"padding_mode=ct.PaddingMode.{padding}")
        if self.chance(0.05):
            args.append(f"latency={self.rng.randint(1, 10)}")
        return self.bind(scope, "v", dtype, shape, f"ct.load({', '.join(args)})")

    def store(self, value, out_dtype=None):
        out_dtype = out_dtype or value.dtype
        rank = max(value.rank, 1)
        dims = ["?" if not self.chance(0.1) else self.rng.randint(1, 64) for _ in range(rank)]
        array = self.k.array("y", out_dtype, dims)
        index = [self.index_entry() for _ in range(rank)]
        index_text = f"({', '.join(index)}{',' if rank == 1 else ''})"
        order = ""
        if rank >= 2 and self.chance(0.15):
            perm = list(range(rank))
            self.rng.shuffle(perm)
            order = f", order={tuple(perm)}"
        self.k.emit(f"ct.store({array}, index={index_text}, tile={value.name}{order})")

    def gen_store(self, scope):
        value = self.typed(scope)
        if value is None:
            return False
        out = value.dtype
        if value.dtype in dt.ARITHMETIC and self.chance(0.3):
            wider = [d for d in dt.ARITHMETIC if d != value.dtype and dt.lossless_into(value.dtype, d)]
            out = self.rng.choice(wider) if wider else out
        self.store(value, out)
        return True

    def gather_index(self, scope, rank):
        """Index tiles for a rank-1 or rank-2 gather/scatter and the shape they broadcast to."""
        n0 = 2 ** self.rng.randint(0, 8)
        idx_dtype = self.rng.choice(("int32", "int32", "int64", "uint32", "int16"))
        arange = f"ct.arange({n0}, dtype=ct.{idx_dtype})"
        if idx_dtype in dt.SIGNED and self.runtime_ints and self.chance(0.8):
            # an int32 block offset promotes the index tile to at least int32
            base = self.rng.choice(self.runtime_ints)
            rows = self.bind(scope, "g", dt.promote("int32", idx_dtype), (n0,), f"{base} * {n0} + {arange}")
        else:
            rows = self.bind(scope, "g", idx_dtype, (n0,), arange)
        if rank == 1:
            return rows.name, (n0,), rows
        n1 = 2 ** self.rng.randint(0, 6)
        cols = self.bind(scope, "g", "int32", (n1,), f"ct.arange({n1}, dtype=ct.int32)")
        return f"({rows.name}[:, None], {cols.name}[None, :])", (n0, n1), rows

    def mask_for(self, scope, shape, rows, rank):
        if self.chance(0.4):
            return None
        mask = self.typed(scope, lambda v: v.dtype == dt.BOOL and broadcast(v.shape, shape) == shape)
        if mask is not None and self.chance(0.5):
            return mask.name
        limit = self.rng.randint(1, 300)
        return f"{rows.name}[:, None] < {limit}" if rank == 2 else f"{rows.name} < {limit}"

    def gen_gather(self, scope):
        rank = self.rng.randint(1, 2)
        dtype = self.pick_dtype()
        array = self.k.array("x", dtype, ["?"] * rank)
        index, shape, rows = self.gather_index(scope, rank)
        if math.prod(shape) > self.cap:
            return False
        args = [array, index]
        mask = self.mask_for(scope, shape, rows, rank)
        if mask:
            args.append(f"mask={mask}")
        if self.chance(0.5):
            kind = "float" if dt.is_float(dtype) else ("bool" if dtype == dt.BOOL else "int")
            args.append(f"padding_value={ex.literal(kind, dtype, '+', self.rng)}")
        self.bind(scope, "v", dtype, shape, f"ct.gather({', '.join(args)})")
        return True

    def gen_scatter(self, scope):
        rank = self.rng.randint(1, 2)
        index, shape, rows = self.gather_index(scope, rank)
        value = self.typed(scope, lambda v: v.dtype not in dt.RESTRICTED and broadcast(v.shape, shape) == shape)
        if value is None:
            return False
        array = self.k.array("y", value.dtype, ["?"] * rank)
        args = [array, index, value.name]
        mask = self.mask_for(scope, shape, rows, rank)
        if mask:
            args.append(f"mask={mask}")
        self.k.emit(f"ct.scatter({', '.join(args)})")
        return True

    def gen_scalar(self, scope):
        """A runtime scalar: a kernel parameter of a scalar dtype, or an array's extent."""
        arrays = [p.name for p in self.k.arrays]
        if arrays and self.chance(0.4):
            self.bind(scope, "v", "int32", (), f"{self.rng.choice(arrays)}.shape[0]")
        else:
            dtype = self.rng.choice(SCALAR_DTYPES)
            scope.add(Value(self.k.scalar(dtype), dtype, ()))
        return True

    # ---- element-wise --------------------------------------------------------------------------
    def gen_binary(self, scope):
        a = self.typed(scope, lambda v: v.dtype not in dt.RESTRICTED)
        if a is None:
            return False
        op = self.rng.choice(ex.BINARY)
        if self.chance(0.35):
            kind = self.rng.choice(("int", "int", "float", "bool"))
            result = ex.result_dtype(op, a.dtype, kind, b_literal=True)
            if result is None:
                return False
            lit = ex.literal(kind, a.dtype, op, self.rng)
            left, right = (a.name, lit)
            if op not in ("//", "%", "/", "**", "<<", ">>") and self.chance(0.3):
                left, right = right, left  # reflected form; divisors and exponents stay literals
            shape = a.shape
        else:
            def fits(v):
                s = broadcast(a.shape, v.shape)
                return s is not None and math.prod(s) <= self.cap and \
                    ex.result_dtype(op, a.dtype, v.dtype) is not None
            b = self.typed(scope, fits)
            if b is None:
                return False
            result = ex.result_dtype(op, a.dtype, b.dtype)
            left, right = a.name, b.name
            if op in ex.SHIFTS:
                right = f"({b.name} & 7)"  # shift amounts below every width
            shape = broadcast(a.shape, b.shape)
        self.bind(scope, "v", result, shape, ex.binary_text(op, left, right, self.rng))
        return True

    def gen_unary(self, scope):
        a = self.typed(scope, lambda v: v.dtype not in dt.RESTRICTED)
        if a is None:
            return False
        op = self.rng.choice(list(ex.UNARY))
        result = ex.unary_result(op, a.dtype)
        if result is None:
            return False
        text = ex.unary_text(op, a.name, self.rng)
        if a.dtype == "float32" and op in ("exp2", "rsqrt", "sqrt") and self.chance(0.3):
            text = text[:-1] + ", flush_to_zero=True)"
        self.bind(scope, "v", result, a.shape, text)
        return True

    def gen_astype(self, scope):
        a = self.typed(scope)
        if a is None:
            return False
        if a.dtype in dt.RESTRICTED:
            target = self.rng.choice(dt.FLOATS)
        else:
            target = self.pick_dtype(restricted=dt.is_float(a.dtype) and self.chance(0.3))
        form = f"{a.name}.astype(ct.{target})" if self.chance(0.7) else f"ct.astype({a.name}, ct.{target})"
        self.bind(scope, "v", target, a.shape, form)
        return True

    def gen_where(self, scope):
        cond = self.typed(scope, lambda v: v.dtype == dt.BOOL)
        if cond is None:
            base = self.typed(scope, lambda v: v.dtype in dt.ARITHMETIC)
            if base is None:
                return False
            cond_text, cond_shape = f"({base.name} > {ex.literal('int', base.dtype, '>', self.rng)})", base.shape
        else:
            cond_text, cond_shape = cond.name, cond.shape
        x = self.typed(scope, lambda v: v.dtype in dt.ARITHMETIC and broadcast(v.shape, cond_shape) is not None)
        if x is None:
            return False
        shape = broadcast(x.shape, cond_shape)
        if math.prod(shape) > self.cap:
            return False
        kind = "float" if dt.is_float(x.dtype) else "int"
        y = ex.literal(kind, x.dtype, "+", self.rng)
        args = (x.name, y) if self.chance(0.5) else (y, x.name)
        self.bind(scope, "v", x.dtype, shape, f"ct.where({cond_text}, {args[0]}, {args[1]})")
        return True

    def gen_factory(self, scope):
        dtype = self.pick_dtype()
        shape = self.random_shape(self.rng.randint(1, 3))
        choice = self.rng.randrange(4)
        if choice == 0 and dtype in ("int32", "int64", "float32"):
            n = shape[0]
            start = f", start={self.rng.choice(self.runtime_ints or ['0'])}" if self.chance(0.3) else ""
            self.bind(scope, "v", dtype, (n,), f"ct.arange({n}, dtype=ct.{dtype}{start})")
        elif choice == 1:
            kind = "float" if dt.is_float(dtype) else ("bool" if dtype == dt.BOOL else "int")
            fill = ex.literal(kind, dtype, "+", self.rng)
            scalar = self.typed(scope, lambda v: v.rank == 0 and v.dtype in dt.ARITHMETIC)
            if scalar is not None and self.chance(0.3):
                fill = scalar.name  # a runtime fill value, converted to dtype
            self.bind(scope, "v", dtype, shape, f"ct.full({shape_text(shape)}, {fill}, dtype=ct.{dtype})")
        else:
            fn = "ct.zeros" if choice == 2 else "ct.ones"
            self.bind(scope, "v", dtype, shape, f"{fn}({self.shape_arg(shape)}, dtype=ct.{dtype})")
        return True

    # ---- reductions and scans ------------------------------------------------------------------
    def gen_reduce(self, scope):
        a = self.typed(scope, lambda v: v.rank >= 1 and v.dtype not in dt.RESTRICTED)
        if a is None:
            return False
        op = self.rng.choice(("sum", "prod", "max", "min", "argmax", "argmin", "reduce"))
        keep = self.chance(0.3)
        if op in ("sum", "prod", "max", "min") and a.rank >= 2 and self.chance(0.2):
            axes = tuple(sorted(self.rng.sample(range(a.rank), self.rng.randint(2, a.rank))))
        elif self.chance(0.2) and op != "reduce":
            axes = None
        else:
            axes = (self.rng.randrange(a.rank),)
        if axes is None:
            shape = tuple(1 for _ in a.shape) if keep else ()
            axis_text = "None"
        else:
            shape = tuple(1 if i in axes else d for i, d in enumerate(a.shape) if keep or i not in axes)
            axis = axes[0] - a.rank if self.chance(0.2) else axes[0]
            axis_text = str(axis) if len(axes) == 1 else str(axes)
        dtype = "int32" if op.startswith("arg") else dt.reduced(a.dtype)
        kd = ", keepdims=True" if keep else ""
        if op == "reduce":
            if a.dtype == dt.BOOL:
                return False
            func, identity = self.combiner(a.dtype)
            text = f"ct.reduce({a.name}, {axis_text}, {func}, {identity}{kd})"
        else:
            text = f"ct.{op}({a.name}, axis={axis_text}{kd})"
        self.bind(scope, "v", dtype, shape, text)
        return True

    def combiner(self, dtype):
        if self.chance(0.5):
            return "lambda p, q: p + q", "0"
        if dt.is_float(dtype):
            return "lambda p, q: ct.maximum(p, q)", 'float("-inf")'
        return "lambda p, q: ct.maximum(p, q)", str(dt.int_range(dtype)[0])

    def gen_scan(self, scope):
        a = self.typed(scope, lambda v: v.rank >= 1 and v.dtype not in dt.RESTRICTED)
        if a is None:
            return False
        axis = self.rng.randrange(a.rank)
        rev = ", reverse=True" if self.chance(0.3) else ""
        op = self.rng.choice(("cumsum", "cumprod", "scan"))
        if op == "scan":
            if a.dtype == dt.BOOL:
                return False
            func, identity = self.combiner(a.dtype)
            text = f"ct.scan({a.name}, {axis}, {func}, {identity}{rev})"
        else:
            text = f"ct.{op}({a.name}, axis={axis}{rev})"
        self.bind(scope, "v", dt.reduced(a.dtype), a.shape, text)
        return True

    # ---- shape operations ----------------------------------------------------------------------
    def gen_shape_op(self, scope):
        a = self.typed(scope)
        if a is None:
            return False
        op = self.rng.choice(("reshape", "permute", "transpose", "broadcast", "expand", "cat",
                              "extract", "item"))
        return getattr(self, "shape_" + op)(scope, a)

    def shape_reshape(self, scope, a):
        bits = int(math.log2(a.numel))
        rank = self.rng.randint(1, 4)
        parts = [0] * rank
        for _ in range(bits):
            parts[self.rng.randrange(rank)] += 1
        shape = tuple(2 ** p for p in parts)
        dims = [str(d) for d in shape]
        if self.chance(0.2):
            dims[self.rng.randrange(rank)] = "-1"
        target = "(" + ", ".join(dims) + ("," if rank == 1 else "") + ")"
        text = f"{a.name}.reshape({target})" if self.chance(0.5) else f"ct.reshape({a.name}, {target})"
        self.bind(scope, "v", a.dtype, shape, text)
        return True

    def shape_permute(self, scope, a):
        if a.rank < 2:
            return False
        perm = list(range(a.rank))
        self.rng.shuffle(perm)
        shape = tuple(a.shape[p] for p in perm)
        text = f"ct.permute({a.name}, {tuple(perm)})" if self.chance(0.5) else f"{a.name}.permute({tuple(perm)})"
        self.bind(scope, "v", a.dtype, shape, text)
        return True

    def shape_transpose(self, scope, a):
        if a.rank < 2:
            return False
        if a.rank == 2 and self.chance(0.6):
            x, y = 0, 1
            text = f"ct.transpose({a.name})" if self.chance(0.5) else f"{a.name}.transpose()"
        else:
            x, y = self.rng.sample(range(a.rank), 2)
            text = f"ct.transpose({a.name}, {x}, {y})"
        shape = list(a.shape)
        shape[x], shape[y] = shape[y], shape[x]
        self.bind(scope, "v", a.dtype, shape, text)
        return True

    def shape_broadcast(self, scope, a):
        shape = [d if d != 1 else 2 ** self.rng.randint(0, 3) for d in a.shape]
        if len(shape) < 4 and self.chance(0.4):
            shape.insert(0, 2 ** self.rng.randint(1, 3))
        if math.prod(shape) > self.cap or not shape:
            return False
        self.bind(scope, "v", a.dtype, shape, f"ct.broadcast_to({a.name}, {shape_text(shape)})")
        return True

    def shape_expand(self, scope, a):
        if a.rank >= 4:
            return False
        form = self.rng.randrange(3)
        if form == 0 or a.rank == 0:
            axis = self.rng.randint(0, a.rank)
            shape = a.shape[:axis] + (1,) + a.shape[axis:]
            text = f"ct.expand_dims({a.name}, {axis})"
        elif form == 1:
            shape, text = (1,) + a.shape, f"{a.name}[None]"
        else:
            shape, text = a.shape + (1,), f"{a.name}[..., None]"
        self.bind(scope, "v", a.dtype, shape, text)
        return True

    def shape_cat(self, scope, a):
        if a.rank == 0 or a.numel * 2 > self.cap:
            return False
        b = self.typed(scope, lambda v: v.dtype == a.dtype and v.shape == a.shape)
        axis = self.rng.randrange(a.rank)
        shape = list(a.shape)
        shape[axis] *= 2
        self.bind(scope, "v", a.dtype, shape, f"ct.cat(({a.name}, {b.name}), {axis})")
        return True

    def shape_extract(self, scope, a):
        if a.rank == 0:
            return False
        sub = tuple(d >> self.rng.randint(0, int(math.log2(d))) for d in a.shape)
        index = tuple(self.rng.randrange(d // s) for d, s in zip(a.shape, sub))
        index_text = f"({', '.join(map(str, index))}{',' if a.rank == 1 else ''})"
        if self.chance(0.5):
            text = f"{a.name}.extract({index_text}, {shape_text(sub)})"
        else:
            text = f"ct.extract({a.name}, {index_text}, {shape_text(sub)})"
        self.bind(scope, "v", a.dtype, sub, text)
        return True

    def shape_item(self, scope, a):
        if a.numel != 1 or a.rank == 0:
            return False
        self.bind(scope, "v", a.dtype, (), f"{a.name}.item()")
        return True

    # ---- matrix multiply -----------------------------------------------------------------------
    def mma_operands(self, scope, k_index=None):
        operand = self.rng.choice(MMA_OPERANDS)
        acc = self.rng.choice(dt.MMA_ACC[operand])
        m, n, kk = (2 ** self.rng.randint(3 if self.chance(0.2) else 4, 6) for _ in range(3))
        batch = (2,) if self.chance(0.15) else ()
        load_dtype = "float32" if operand == "tfloat32" else operand
        second = load_dtype
        if operand in ("int8", "uint8") and self.chance(0.5):
            second = "uint8" if operand == "int8" else "int8"
        row = self.index_entry()
        ka = k_index or "0"
        x = self.gen_load(scope, load_dtype, batch + (m, kk), [row] * len(batch) + [row, ka])
        y = self.gen_load(scope, second, (kk, n), [k_index or "0", self.index_entry()])
        if operand == "tfloat32":
            x = self.bind(scope, "v", "tfloat32", x.shape, f"{x.name}.astype(ct.tfloat32)")
            y = self.bind(scope, "v", "tfloat32", y.shape, f"{y.name}.astype(ct.tfloat32)")
        return x, y, acc, batch + (m, n), operand

    def gen_mma(self, scope):
        x, y, acc, shape, operand = self.mma_operands(scope)
        if math.prod(shape) > self.cap * 4:
            return False
        if operand not in ("tfloat32", "float8_e4m3fn", "float8_e5m2") and x.dtype == y.dtype and self.chance(0.3):
            self.bind(scope, "v", x.dtype, shape, f"({x.name} @ {y.name})")
            return True
        init = f"ct.zeros({shape_text(shape)}, dtype=ct.{acc})" if self.chance(0.7) else \
            f"ct.full({shape_text(shape)}, 1, dtype=ct.{acc})"
        self.bind(scope, "v", acc, shape, f"ct.mma({x.name}, {y.name}, {init})")
        return True

    def gen_gemm_loop(self, scope):
        """The GEMM main loop: an accumulator carried over K tiles (the pipelining pass's shape)."""
        if self.depth > 0:
            return False
        acc_name = self.k.fresh("acc")
        k = self.k.fresh("k")
        trips = self.k.scalar("int32") if self.chance(0.5) else str(self.rng.randint(1, 4))
        body = scope.child()
        self.runtime_ints.append(k)
        header_at = len(self.k.body)
        self.k.indent += 1
        x, y, acc, shape, _ = self.mma_operands(body, k_index=k)
        self.k.emit(f"{acc_name} = ct.mma({x.name}, {y.name}, {acc_name})")
        self.k.indent -= 1
        self.runtime_ints.pop()
        ind = self.k.indent
        self.k.body[header_at:header_at] = [
            (ind, f"{acc_name} = ct.zeros({shape_text(shape)}, dtype=ct.{acc})"),
            (ind, f"for {k} in range({trips}):")]
        scope.add(Value(acc_name, acc, shape))
        return True

    # ---- control flow --------------------------------------------------------------------------
    def body(self, scope, count):
        for _ in range(count):
            self.statement(scope)

    def carried_update(self, scope, acc):
        """acc = acc <op> value, keeping acc's dtype and shape exactly (a loop-carried value)."""
        v = self.typed(scope, lambda v: v.dtype not in dt.RESTRICTED and broadcast(v.shape, acc.shape) == acc.shape
                       and v.name != acc.name)
        op = self.rng.choice(("+", "*", "max") if acc.dtype != dt.BOOL else ("|", "^"))
        rhs = ex.literal("int", acc.dtype, op, self.rng) if acc.dtype != dt.BOOL else "True"
        if v is not None:
            rhs = v.name if v.dtype == acc.dtype else f"{v.name}.astype(ct.{acc.dtype})"
        text = f"max({acc.name}, {rhs})" if op == "max" else f"{acc.name} {op} {rhs}"
        self.k.emit(f"{acc.name} = {text}")

    def loop_accumulator(self, scope):
        base = self.typed(scope, lambda v: v.dtype in dt.ARITHMETIC + (dt.BOOL,))
        name = self.k.fresh("acc")
        if base is not None and self.chance(0.5):
            self.k.emit(f"{name} = {base.name}")
            return scope.add(Value(name, base.dtype, base.shape))
        dtype = self.pick_dtype()
        shape = self.random_shape(self.rng.randint(0, 3))
        self.k.emit(f"{name} = ct.zeros({shape_text(shape) if shape else '()'}, dtype=ct.{dtype})")
        return scope.add(Value(name, dtype, shape))

    def gen_for(self, scope):
        if self.depth >= 2:
            return False
        accs = [self.loop_accumulator(scope) for _ in range(self.rng.randint(1, 2))]
        k = self.k.fresh("k")
        form = self.rng.randrange(4)
        if form == 0:
            bound = str(self.rng.randint(0, 4))
        elif form == 1:
            bound = f"0, {self.k.scalar('int32')}, {self.rng.randint(1, 3)}"
        elif form == 2:
            bound = f"{self.rng.choice(self.runtime_ints or ['0'])}, {self.k.scalar('int32')}"
        else:
            arr = self.k.arrays[-1].name if self.k.arrays else None
            if arr is None:
                return False
            bound = f"{arr}.shape[0] // 16"  # the tile count of a runtime extent
        self.k.emit(f"for {k} in range({bound}):")
        self.enter_block(scope, accs, k)
        return True

    def gen_while(self, scope):
        if self.depth >= 2:
            return False
        accs = [self.loop_accumulator(scope)]
        w = self.k.fresh("w")
        self.k.emit(f"{w} = {self.rng.choice(self.runtime_ints or ['0'])}")
        scope.add(Value(w, "int32", ()))
        bound = self.k.scalar("int32") if self.chance(0.6) else str(self.rng.randint(1, 5))
        self.k.emit(f"while {w} < {bound}:")
        self.enter_block(scope, accs, w, step=f"{w} += {self.rng.choice(['1', '2', 'ct.num_blocks(0)'])}")
        return True

    def enter_block(self, scope, accs, index_var, step=None):
        inner = scope.child()
        inner.add(Value(index_var, "int32", ()))
        self.depth += 1
        self.k.indent += 1
        self.runtime_ints.append(index_var)
        if self.chance(0.3):
            limit = self.k.scalar("int32")
            self.k.emit(f"if {index_var} >= {limit}:")
            self.k.emit("    break")
        elif step is None and self.chance(0.2):
            self.k.emit(f"if {index_var} % 2 == 1:")
            self.k.emit("    continue")
        self.body(inner, self.rng.randint(1, 4))
        for acc in accs:
            self.carried_update(inner, acc)
        if step:
            self.k.emit(step)
        self.runtime_ints.pop()
        self.k.indent -= 1
        self.depth -= 1

    def gen_branch(self, scope):
        """A value chosen by a constant flag (one side never compiled) or a runtime scalar test."""
        if self.depth >= 2:
            return False
        base = self.typed(scope, lambda v: v.dtype in dt.ARITHMETIC)
        if base is None:
            return False
        if self.chance(0.5):
            cond = self.k.constant("F", self.chance(0.5), "bool")
        elif self.runtime_ints and self.chance(0.7):
            cond = f"{self.rng.choice(self.runtime_ints)} % 2 == 0"
        else:
            cond = f"{self.k.scalar('int32')} > 0"
        name = self.k.fresh("b")
        self.k.emit(f"if {cond}:")
        for side in range(2):
            if side:
                self.k.emit("else:")
            self.k.indent += 1
            self.depth += 1
            inner = scope.child()
            self.body(inner, self.rng.randint(0, 2))
            kind = "float" if dt.is_float(base.dtype) else "int"
            op = self.rng.choice(("+", "*", "-"))
            self.k.emit(f"{name} = {base.name} {op} {ex.literal(kind, base.dtype, op, self.rng)}")
            self.depth -= 1
            self.k.indent -= 1
        scope.add(Value(name, base.dtype, base.shape))
        return True

    def gen_early_exit(self, scope):
        if self.depth > 0 or not self.runtime_ints:
            return False
        self.k.emit(f"if {self.runtime_ints[0]} >= {self.k.scalar('int32')}:")
        self.k.emit("    return")
        return True

    def gen_helper(self, scope):
        """A module-level helper over one or two values, inlined by the transpiler per call."""
        if self.depth > 0:
            return False
        args = [self.typed(scope, lambda v: v.dtype not in dt.RESTRICTED)]
        if args[0] is None:
            return False
        second = self.typed(scope, lambda v: v.dtype not in dt.RESTRICTED and v.name != args[0].name)
        if second is not None and self.chance(0.6):
            args.append(second)
        name = f"{self.k.name}_h{len(self.k.helpers)}"
        params = [f"p{i}" for i in range(len(args))]
        saved = (self.k.body, self.k.indent, self.runtime_ints)
        self.k.body, self.k.indent, self.runtime_ints = [], 1, []
        inner = Scope(values=[Value(p, a.dtype, a.shape) for p, a in zip(params, args)])
        self.depth += 1
        for _ in range(self.rng.randint(1, 3)):
            for _attempt in range(8):
                if self.rng.choice((self.gen_binary, self.gen_unary, self.gen_reduce,
                                    self.gen_shape_op, self.gen_where))(inner):
                    break
        self.depth -= 1
        results = inner.values[-2:] if self.chance(0.3) and len(inner.values) >= 2 else inner.values[-1:]
        self.k.emit("return " + ", ".join(r.name for r in results))
        lines = [f"def {name}({', '.join(params)}):"] + ["    " * i + t for i, t in self.k.body]
        self.k.helpers.append(lines)
        self.k.body, self.k.indent, self.runtime_ints = saved
        outs = [self.k.fresh("v") for _ in results]
        self.k.emit(f"{', '.join(outs)} = {name}({', '.join(a.name for a in args)})")
        for out, r in zip(outs, results):
            scope.add(Value(out, r.dtype, r.shape))
        return True

    # ---- driver --------------------------------------------------------------------------------
    WEIGHTS = (("gen_load", 8), ("gen_binary", 14), ("gen_unary", 6), ("gen_astype", 5),
               ("gen_where", 3), ("gen_factory", 3), ("gen_reduce", 5), ("gen_scan", 3),
               ("gen_shape_op", 8), ("gen_gather", 2), ("gen_scatter", 2), ("gen_store", 2),
               ("gen_mma", 2), ("gen_gemm_loop", 1), ("gen_for", 3), ("gen_while", 1),
               ("gen_branch", 3), ("gen_helper", 2), ("gen_early_exit", 1), ("gen_scalar", 2))

    def statement(self, scope):
        names, weights = zip(*self.WEIGHTS)
        for _ in range(20):
            if getattr(self, self.rng.choices(names, weights)[0])(scope):
                return

    def kernel(self):
        scope = Scope()
        self.k.emit("bid = ct.bid(0)")
        scope.add(Value("bid", "int32", ()))
        self.runtime_ints.append("bid")
        self.gen_load(scope)
        self.body(scope, self.rng.randint(3, 12))
        live = [v for v in scope.values if v.name != "bid" and v.dtype != "tfloat32"]
        for value in live[-self.rng.randint(1, 3):]:
            self.store(value)
        return self.k


def generate(seed, index, big_tiles=0.1):
    """Program `index` of the run seeded `seed`: a module with one kernel, rk<index>."""
    rng = random.Random(f"{seed}:{index}")
    cap = 32768 if rng.random() < big_tiles else 1024
    k = KernelGen(rng, f"rk{index}", cap).kernel()
    sig = k.signature()
    source = (f"# random kernel: seed {seed}, program {index} (tests/random/run_random.py)\n"
              f"# sig: {sig}\n"
              "import cuda.tile as ct\n\n\n" + k.source())
    return GeneratedProgram(k.name, source, sig)
