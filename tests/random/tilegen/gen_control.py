"""mma and the GEMM loop; loops, branches, early exits and helper functions.

A mixin of KernelGen (generator.py): each gen_* method emits one statement into self.k and
binds what it produces in the scope, or returns False when the scope offers nothing it can use."""
import math

from . import dtypes as dt
from . import expressions as ex
from .program import Scope, Value, broadcast, shape_text

# Operand dtypes of mma with their accumulators (c.11), f8 and tf32 included.
MMA_OPERANDS = tuple(dt.MMA_ACC)


class ControlStatements:
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
            text = f"({x.name} @ {y.name})" if self.chance(0.6) else f"ct.matmul({x.name}, {y.name})"
            self.bind(scope, "v", x.dtype, shape, text)
            return True
        init = f"ct.zeros({shape_text(shape)}, dtype=ct.{acc})" if self.chance(0.7) else \
            f"ct.full({shape_text(shape)}, 1, dtype=ct.{acc})"
        init = f"acc={init}" if self.chance(0.3) else init
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
            rhs = v.name if v.dtype == acc.dtype else self.cast_text(v.name, v.dtype, acc.dtype)
        if op != "max" and self.chance(0.5):
            self.k.emit(f"{acc.name} {op}= {rhs}")  # augmented assignment (e.4)
            return
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
        form = self.rng.randrange(6)
        if form == 0:
            bound = str(self.rng.randint(0, 4))
        elif form == 1:
            bound = f"0, {self.k.scalar('int32')}, {self.rng.randint(1, 3)}"
        elif form == 2:
            bound = f"{self.rng.choice(self.runtime_ints or ['0'])}, {self.k.scalar('int32')}"
        elif form == 3:  # a persistent loop: the grid's stride
            bound = f"bid, {self.k.scalar('int32')}, ct.num_blocks(0)"
        elif form == 4:  # the tile count of an array axis (c.1)
            arrays = [p for p in self.k.arrays if p.name.startswith("x")]
            if not arrays:
                return False
            arr = self.rng.choice(arrays)
            rank = arr.sig.split("[", 1)[1].count(",") + 1
            axis = self.rng.randrange(rank)
            tile = tuple(2 ** self.rng.randint(0, 5) for _ in range(rank))
            bound = f"ct.num_tiles({arr.name}, axis={axis}, shape={shape_text(tile)})"
            if self.gpu_safe:
                bound = f"min({bound}, 4)"  # loop variables index tiles: at most MAX_INDEX
        else:
            arr = self.k.arrays[-1].name if self.k.arrays else None
            if arr is None:
                return False
            bound = f"{arr}.shape[0] // 16"  # the tile count of a runtime extent
            if self.gpu_safe:
                bound = f"min({bound}, 4)"  # loop variables index tiles: at most MAX_INDEX
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
        name = self.k.fresh("b")
        kind = "float" if dt.is_float(base.dtype) else "int"

        def side_value():
            op = self.rng.choice(("+", "*", "-"))
            return f"{base.name} {op} {ex.literal(kind, base.dtype, op, self.rng)}"
        if self.chance(0.15):  # a conditional expression on a runtime scalar (e.4)
            self.k.emit(f"{name} = ({side_value()}) if {self.runtime_condition(scope)} else ({side_value()})")
            scope.add(Value(name, base.dtype, base.shape))
            return True
        conds = [self.condition(scope) for _ in range(2 if self.chance(0.2) else 1)]
        for side in range(len(conds) + 1):
            if side == len(conds):
                self.k.emit("else:")
            else:
                self.k.emit(f"{'if' if side == 0 else 'elif'} {conds[side]}:")
            self.k.indent += 1
            self.depth += 1
            inner = scope.child()
            count = self.rng.randint(0, 2)
            if count == 0 and self.chance(0.3):
                self.k.emit("pass")
            self.body(inner, count)
            self.k.emit(f"{name} = {side_value()}")
            self.depth -= 1
            self.k.indent -= 1
        scope.add(Value(name, base.dtype, base.shape))
        return True

    def condition(self, scope):
        """A branch condition: a ct.Constant[bool] flag, a compile-time test of a value's dtype,
        shape or rank (one side never compiled: cutile-language.md e.2), or a runtime test."""
        roll = self.rng.random()
        if roll < 0.3:
            return self.k.constant("F", self.chance(0.5), "bool")
        if roll < 0.5:
            v = self.typed(scope)
            if v is not None:
                form = self.rng.randrange(4)
                if form == 0:
                    return f"{v.name}.dtype == ct.{self.rng.choice((v.dtype, self.pick_dtype()))}"
                if form == 1 and v.rank:
                    axis = self.rng.randrange(v.rank)
                    return f"{v.name}.shape[{axis}] {self.rng.choice(('==', '>=', '<'))} {v.shape[axis]}"
                if form == 2:
                    return f"len({v.name}.shape) == {self.rng.randint(0, 4)}"
                return f"{v.name}.ndim > {self.rng.randint(0, 3)}"
        return self.runtime_condition(scope)

    def runtime_condition(self, scope):
        """A block-uniform runtime test: int32 scalars with `not`, `and` / `or`, chained
        comparisons and runtime bool parameters (e.3)."""
        if not self.runtime_ints or self.chance(0.25):
            if self.chance(0.3):
                flag = self.k.scalar("bool_", ": bool")
                return f"not {flag}" if self.chance(0.5) else flag
            s = self.k.scalar("int32", ": int" if self.chance(0.5) else "")
            return f"{s} > 0"
        i = self.rng.choice(self.runtime_ints)
        form = self.rng.randrange(5)
        if form == 0:
            return f"{i} % 2 == 0"
        if form == 1:
            return f"not {i} % 2 == 0"
        if form == 2:
            return f"0 <= {i} < {self.k.scalar('int32')}"
        other = self.rng.choice(self.runtime_ints)
        return f"{i} >= 1 {'and' if form == 3 else 'or'} {other} < {self.rng.randint(0, 4)}"

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
        call_extra = ""
        if args[0].dtype != dt.BOOL and self.chance(0.3):
            # an optional parameter tested with `is None` (e.3): folded per call
            params.append("scale=None")
            self.k.emit("if scale is not None:")
            self.k.emit("    p0 = p0 * scale")
            if self.chance(0.5):
                call_extra = ", scale=" + ("2.0" if dt.is_float(args[0].dtype) else "2")
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
        self.k.emit(f"{', '.join(outs)} = {name}({', '.join(a.name for a in args)}{call_extra})")
        for out, r in zip(outs, results):
            scope.add(Value(out, r.dtype, r.shape))
        return True
