"""Element-wise expressions, factories, reductions, scans and shape operations.

A mixin of KernelGen (generator.py): each gen_* method emits one statement into self.k and
binds what it produces in the scope, or returns False when the scope offers nothing it can use."""
import math

from . import dtypes as dt
from . import expressions as ex
from .program import broadcast, shape_text


class ComputeStatements:
    # ---- element-wise --------------------------------------------------------------------------
    def gen_binary(self, scope):
        a = self.typed(scope, lambda v: v.dtype not in dt.RESTRICTED)
        if a is None:
            return False
        op = self.rng.choice(ex.BINARY)
        # gpu_safe: integer // and % only by nonzero literals (division by zero is undefined)
        if self.chance(0.35) or (self.gpu_safe and op in ("//", "%")) or op == "cdiv":
            kind = self.rng.choice(("int", "int", "float", "bool"))
            result = ex.result_dtype(op, a.dtype, kind, b_literal=True)
            if result is None:
                return False
            lit = ex.literal(kind, a.dtype, op, self.rng)
            if op != "**":  # exponents stay the few literals expressions.literal picks
                lit = ex.spelled(lit, kind, self.k, self.rng)
            left, right = (a.name, lit)
            if op not in ("//", "%", "/", "**", "<<", ">>", "cdiv") and self.chance(0.3):
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
        self.bind(scope, "v", result, shape, ex.binary_text(op, left, right, result, self.rng))
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
        elif result == "float32" and op in ("exp", "tanh") and not self.gpu_safe and self.chance(0.2):
            # APPROX is outside the reference's error bounds: transpile / build oracles only
            text = text[:-1] + ", rounding_mode=ct.RoundingMode.APPROX)"
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
        method = self.chance(0.7)
        text = self.cast_text(a.name, a.dtype, target, method)
        if a.rank == 0 and target in dt.ARITHMETIC and text == f"{a.name}.astype(ct.{target})" \
                and self.chance(0.4):
            text = f"ct.{target}({a.name})"  # the dtype constructor: a scalar cast (e.2)
        self.bind(scope, "v", target, a.shape, text)
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
        y, result = ex.literal(kind, x.dtype, "+", self.rng), x.dtype
        other = self.typed(scope, lambda v: v.dtype in dt.ARITHMETIC and dt.promote(x.dtype, v.dtype) is not None
                           and broadcast(v.shape, shape) is not None
                           and math.prod(broadcast(v.shape, shape)) <= self.cap)
        if other is not None and self.chance(0.4):  # two typed operands: broadcast and promoted
            y, result, shape = other.name, dt.promote(x.dtype, other.dtype), broadcast(other.shape, shape)
        args = (x.name, y) if self.chance(0.5) else (y, x.name)
        self.bind(scope, "v", result, shape, f"ct.where({cond_text}, {args[0]}, {args[1]})")
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
            if scalar is not None and self.gpu_safe and dt.is_float(scalar.dtype) and not dt.is_float(dtype):
                scalar = None  # a float fill converted to an integer may be out of range
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
            options = ex.numeric_options(op, dtype, self.rng) if self.chance(0.2) else ""
            text = f"ct.{op}({a.name}, axis={axis_text}{kd}{options})"
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
            options = ex.numeric_options(op, a.dtype, self.rng) if self.chance(0.2) else ""
            text = f"ct.{op}({a.name}, axis={axis}{rev}{options})"
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
        self.bind(scope, "v", a.dtype, shape, self.tile_op("reshape", a, target))
        return True

    def shape_permute(self, scope, a):
        if a.rank < 2:
            return False
        perm = list(range(a.rank))
        self.rng.shuffle(perm)
        shape = tuple(a.shape[p] for p in perm)
        self.bind(scope, "v", a.dtype, shape, self.tile_op("permute", a, str(tuple(perm))))
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
        text = self.tile_op("extract", a, f"{index_text}, {shape_text(sub)}")
        self.bind(scope, "v", a.dtype, sub, text)
        return True

    def shape_item(self, scope, a):
        if a.numel != 1 or a.rank == 0:
            return False
        self.bind(scope, "v", a.dtype, (), f"{a.name}.item()")
        return True
