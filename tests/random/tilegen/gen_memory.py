"""Loads, stores, gather/scatter, atomics and runtime scalars of a generated kernel.

A mixin of KernelGen (generator.py): each gen_* method emits one statement into self.k and
binds what it produces in the scope, or returns False when the scope offers nothing it can use."""
import math

from . import dtypes as dt
from . import expressions as ex
from .program import Value, broadcast

PADDINGS_FLOAT = ("ZERO", "NEG_ZERO", "NAN", "POS_INF", "NEG_INF", "UNDETERMINED")
PADDINGS_OTHER = ("ZERO", "UNDETERMINED")
SCALAR_DTYPES = ("int32", "int64", "float32", "float64", "float16")
# Array dtypes of the atomics (c.2.6); bf16 add needs sm_90, and the builds include sm_80.
ATOMIC_INTS = ("int32", "int64", "uint32", "uint64")
ATOMIC_DTYPES = {"add": ATOMIC_INTS + ("float32", "float64", "float16"), "max": ATOMIC_INTS,
                 "min": ATOMIC_INTS, "and": ATOMIC_INTS, "or": ATOMIC_INTS, "xor": ATOMIC_INTS,
                 "xchg": ATOMIC_INTS + ("float32", "float64"), "cas": ATOMIC_INTS + ("float32", "float64")}
ATOMIC_ORDERS = ("RELAXED", "ACQUIRE", "RELEASE", "ACQ_REL")


class MemoryStatements:
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
        sliced = None
        if self.gpu_safe:  # decided before the name, so that static extents can allow for it
            sliced = self.rng.randrange(rank) if self.chance(0.08) else None
            for k in range(rank):
                axis = order[k] if order else k
                if dims[axis] != "?":
                    dims[axis] = self.safe_extent(shape[k], axis == sliced)
        array = self.k.array("x", dtype, dims, quals)
        if self.gpu_safe:
            for k in range(rank):
                axis = order[k] if order else k
                self.k.hint(array, axis, rank, f"t{shape[k]}" + ("s" if axis == sliced else ""))
        if (self.chance(0.08) if not self.gpu_safe else sliced is not None):
            # a sub-array view along one axis, from a runtime start to the end (b.1)
            axis = self.rng.randrange(rank) if sliced is None else sliced
            start = self.rng.choice(self.runtime_ints or ["0"])
            view = self.k.fresh("view")
            self.k.emit(f"{view} = {array}.slice({axis}, {start}, {array}.shape[{axis}])")
            array = view
        args = [array]
        if rank == 1 and self.chance(0.15):
            args += [f"index={index[0]}", f"shape={self.dim_text(shape[0])}"]
        else:
            args += [f"index=({', '.join(index)}{',' if rank == 1 else ''})", f"shape={self.shape_arg(shape)}"]
        if order:
            args.append('order="F"' if order == [1, 0] and self.chance(0.3) else f"order={tuple(order)}")
        paddings = PADDINGS_FLOAT if dt.is_float(dtype) else PADDINGS_OTHER
        padding = self.rng.choice(paddings) if self.chance(0.7) else None
        if self.gpu_safe and padding in (None, "UNDETERMINED"):
            padding = self.rng.choice([p for p in paddings if p != "UNDETERMINED"])
        if padding:
            args.append(f"padding_mode=ct.PaddingMode.{padding}")
        if self.chance(0.05):
            args.append(f"latency={self.rng.randint(1, 10)}")
        if self.chance(0.05):
            args.append(f"allow_tma={self.chance(0.5)}")
        if self.chance(0.03):
            args.append("check_bounds=True")
        return self.bind(scope, "v", dtype, shape, f"ct.load({', '.join(args)})")

    def hints(self):
        """latency= / allow_tma= / check_bounds=True on a store, gather or scatter, now and then.
        check_bounds=False is left out: it makes tileiras 13.4 fail (TileCompilerExecutionError)."""
        out = ""
        if self.chance(0.05):
            out += f", latency={self.rng.randint(1, 10)}"
        if self.chance(0.05):
            out += ", check_bounds=True"
        return out

    def store(self, value, out_dtype=None):
        out_dtype = out_dtype or value.dtype
        rank = max(value.rank, 1)
        dims = ["?" if not self.chance(0.1) else self.rng.randint(1, 64) for _ in range(rank)]
        index = [self.index_entry() for _ in range(rank)]
        index_text = f"({', '.join(index)}{',' if rank == 1 else ''})"
        order, perm = "", list(range(rank))
        if rank >= 2 and self.chance(0.15):
            self.rng.shuffle(perm)
            order = f", order={tuple(perm)}"
        tile_dims = value.shape or (1,)
        if self.gpu_safe:  # tile axis k walks array axis perm[k]
            for k in range(rank):
                if dims[perm[k]] != "?":
                    dims[perm[k]] = self.safe_extent(tile_dims[k])
        array = self.k.array("y", out_dtype, dims)
        if self.gpu_safe:
            for k in range(rank):
                self.k.hint(array, perm[k], rank, f"t{tile_dims[k]}")
        tma = f", allow_tma={self.chance(0.5)}" if self.chance(0.05) else ""
        self.k.emit(f"ct.store({array}, index={index_text}, tile={value.name}{order}{self.hints()}{tma})")

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

    def gather_index(self, scope, rank, own_block=False):
        """Index tiles for a rank-1 or rank-2 gather/scatter and the shape they broadcast to.
        own_block: rows bid * N + arange(N), elements no other block of a 1-D grid reaches."""
        n0 = 2 ** self.rng.randint(0, 8)
        idx_dtype = self.rng.choice(("int32", "int32", "int64", "uint32", "int16"))
        if own_block and idx_dtype not in dt.SIGNED:
            idx_dtype = "int32"
        arange = f"ct.arange({n0}, dtype=ct.{idx_dtype})"
        if own_block or (idx_dtype in dt.SIGNED and self.runtime_ints and self.chance(0.8)):
            # an int32 block offset promotes the index tile to at least int32
            base = "bid" if own_block else self.rng.choice(self.runtime_ints)
            rows = self.bind(scope, "g", dt.promote("int32", idx_dtype), (n0,), f"{base} * {n0} + {arange}")
        else:
            rows = self.bind(scope, "g", idx_dtype, (n0,), arange)
        if rank == 1:
            return rows.name, (n0,), rows
        n1 = 2 ** self.rng.randint(0, 6)
        cols = self.bind(scope, "g", "int32", (n1,), f"ct.arange({n1}, dtype=ct.int32)")
        return f"({rows.name}[:, None], {cols.name}[None, :])", (n0, n1), rows

    def index_hints(self, array, shape):
        if self.gpu_safe:
            for axis, n in enumerate(shape):
                self.k.hint(array, axis, len(shape), f"g{n}")

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
        self.index_hints(array, shape)
        args = [array, index]
        mask = self.mask_for(scope, shape, rows, rank)
        if mask:
            args.append(f"mask={mask}")
        if self.chance(0.5):
            kind = "float" if dt.is_float(dtype) else ("bool" if dtype == dt.BOOL else "int")
            args.append(f"padding_value={ex.literal(kind, dtype, '+', self.rng)}")
        self.bind(scope, "v", dtype, shape, f"ct.gather({', '.join(args)}{self.hints()})")
        return True

    def gen_scatter(self, scope):
        rank = self.rng.randint(1, 2)
        index, shape, rows = self.gather_index(scope, rank)
        value = self.typed(scope, lambda v: v.dtype not in dt.RESTRICTED and broadcast(v.shape, shape) == shape)
        if value is None:
            return False
        array = self.k.array("y", value.dtype, ["?"] * rank)
        self.index_hints(array, shape)
        args = [array, index, value.name]
        mask = self.mask_for(scope, shape, rows, rank)
        if mask:
            args.append(f"mask={mask}")
        self.k.emit(f"ct.scatter({', '.join(args)}{self.hints()})")
        return True

    def gen_scalar(self, scope):
        """A runtime scalar: a kernel parameter of a scalar dtype, or an array's extent."""
        # A static extent would be a compile-time constant, not an int32 scalar: dynamic ones only.
        arrays = [p.name for p in self.k.arrays if p.sig.split("[", 1)[1].startswith("?")]
        # strides[0] of an array of dynamic extents only: with static later extents it is constant
        strided = [p.name for p in self.k.arrays if "," in p.sig and "contiguous" not in p.sig
                   and all(d.strip() == "?" for d in p.sig.split("[", 1)[1].split("]")[0].split(","))]
        if strided and self.chance(0.15):
            self.bind(scope, "v", "int32", (), f"{self.rng.choice(strided)}.strides[0]")
        elif arrays and self.chance(0.4):
            self.bind(scope, "v", "int32", (), f"{self.rng.choice(arrays)}.shape[0]")
        else:
            dtype = self.rng.choice(SCALAR_DTYPES)
            annotation = self.rng.choice(("", ": int")) if dtype == "int32" else \
                self.rng.choice(("", ": float")) if dtype == "float32" else ""
            scope.add(Value(self.k.scalar(dtype, annotation), dtype, ()))
        return True

    def gen_atomic(self, scope):
        """An atomic read-modify-write at gathered indices; its old values become a value."""
        op = self.rng.choice(("add", "max", "min", "and", "or", "xor", "xchg", "cas"))
        dtypes = ATOMIC_DTYPES[op]
        if self.gpu_safe and any(v in self.runtime_ints for v in ("bid1", "bid2")):
            return False  # blocks sharing bid(0) would race on the same elements
        if self.chance(0.3):  # a scalar atomic at the block's own element: once per block (h.1)
            index, shape = "bid", ()
        else:
            index, shape, _ = self.gather_index(scope, 1, own_block=self.gpu_safe)
        if math.prod(shape) > self.cap:
            return False
        update = self.typed(scope, lambda v: v.dtype in dtypes and broadcast(v.shape, shape) == shape)
        dtype = update.dtype if update is not None else self.rng.choice(dtypes)
        kind = "float" if dt.is_float(dtype) else "int"
        update_text = update.name if update is not None else ex.literal(kind, dtype, "+", self.rng).lstrip("-")
        array = self.k.array("y", dtype, ["?"])
        self.index_hints(array, shape or (1,))
        args = [array, index]
        if op == "cas":
            args.append(ex.literal(kind, dtype, "+", self.rng).lstrip("-"))
        args.append(update_text)
        if self.chance(0.5):
            args.append(f"memory_order=ct.MemoryOrder.{self.rng.choice(ATOMIC_ORDERS)}")
            args.append(f"memory_scope=ct.MemoryScope.{self.rng.choice(('BLOCK', 'DEVICE', 'SYS'))}")
        if self.chance(0.1):
            args.append("check_bounds=True")
        self.bind(scope, "v", dtype, shape, f"ct.atomic_{op}({', '.join(args)})")
        return True
