"""Launching an NVRTC-built specialization from its launch plan (the JSON `tile2cu --vendor`
writes beside the .cu; src/emit/launch_plan.cpp): the generated host launcher's work, done here
with the CUDA driver instead of compiled host C++.

The entry made here takes what the generated `extern "C" tile2cu_<spec>` takes (the stream, the
grid, per array its pointer, shapes and strides, per scalar its value) and answers the same error
codes: it checks the grid and each array as `to_device_array` and the signature's facts do, picks
the kernel's copy for whole tiles where every block's tiles are whole and that copy keeps the
checked one's occupancy, packs the kernel parameters and calls cuLaunchKernel on the stream.
Like _warm_launch, the entry is Python text generated per specialization, so that a launch is a
few integer tests, one struct.pack_into and one ctypes call.
"""

from __future__ import annotations

import ctypes
import math
import re
import struct
import threading

from . import _driver_api, _tensor_maps

FORMAT = 1
INT32_MAX = 2**31 - 1
MAX_GRID_DIM = 2**24 - 1
# The runtime API's error codes, as the generated C entry returns them (_kernel._launch_error).
INVALID_VALUE, INVALID_CONFIGURATION, MISALIGNED_ADDRESS = 1, 9, 716
NO_KERNEL_IMAGE = 209

# struct codes of the plan's parameter types; float16 and bfloat16 travel as their bits.
_STRUCT_CODE = {"pointer": "Q", "bool_": "?", "int8": "b", "int16": "h", "int32": "i", "int64": "q",
                "uint8": "B", "uint16": "H", "uint32": "I", "uint64": "Q", "float16": "H",
                "bfloat16": "H", "float32": "f", "float64": "d"}


class PlanError(ValueError):
    """A launch plan this launcher cannot read (another format, an unknown type)."""


def parameter_layout(kernel_params: list[dict]) -> tuple[list[int], int, str]:
    """(offset of each kernel parameter, the parameter buffer's size, the struct format that
    packs them): each parameter at the next multiple of its alignment, as the C ABI lays out a
    kernel's parameters (a scalar is aligned to its size; a tensor-map struct, packed as its
    bytes, to the plan's `align`)."""
    offsets, fmt, at = [], "<", 0
    for p in kernel_params:
        size = p["bytes"]
        if p["type"] == "tensor_maps":
            code, align = f"{size}s", p["align"]
        else:
            code, align = _STRUCT_CODE.get(p["type"]), size
        if code is None or struct.calcsize("<" + code) != size or align <= 0:
            raise PlanError(f"kernel parameter type {p['type']} of {size} bytes")
        pad = -at % align
        fmt += "x" * pad + code
        at += pad
        offsets.append(at)
        at += size
    return offsets, at, fmt


def float32(x: float) -> float:
    """x rounded to float32 as the C entry's `float` parameter takes it (inf beyond the range)."""
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(math.inf, x)


def half_bits(x: float) -> int:
    """float16 bits of x, rounded first to float32 as the C entry's `float` parameter is,
    then to nearest even (__float2half)."""
    x = float32(x)
    try:
        return struct.unpack("<H", struct.pack("<e", x))[0]
    except OverflowError:
        return 0xFC00 if x < 0 else 0x7C00


def bfloat16_bits(x: float) -> int:
    """bfloat16 bits of x after float32 rounding, to nearest even (__float2bfloat16)."""
    bits = struct.unpack("<I", struct.pack("<f", float32(x)))[0]
    if (bits & 0x7F800000) == 0x7F800000 and bits & 0x7FFFFF:
        return (bits >> 16) | 0x40   # NaN stays a quiet NaN
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16) & 0xFFFF


def _whole_test_text(test: dict, params: list[dict], flat_names: dict) -> str:
    """A Python expression: whole_in_every_block for this access (memory.cuh), evaluated for the
    first and the last block of the grid, on the arguments as the kernel gets them."""
    if not test["may_be_whole"]:
        return "False"
    array = params[test["param"]]
    p, shape, stride = flat_names[test["param"]]
    rank, elem, access = array["rank"], array["elem_bytes"], test["access_bytes"]
    terms = [f"{stride[rank - 1]} == 1"]
    for k in range(rank - 1):
        if access > 1:
            terms.append(f"{stride[k]} * {elem} % {access} == 0")
    first_base, last_base = [], []
    grid = ("gx", "gy", "gz")
    for k, (term, dim) in enumerate(zip(test["index"], test["tile_shape"])):
        if "bid" in term:
            axis = term["bid"]
            if not 0 <= axis <= 2:
                return "False"
            # Blocks 0 and g-1 along the axis: the last tile ends at g * dim.
            terms.append(f"{grid[axis]} * {dim} <= {shape[k]}")
            last_base.append(f"({grid[axis]} - 1) * {dim} * {stride[k]}")
        else:
            lo = term["literal"] * dim
            if lo < 0:
                return "False"
            terms.append(f"{lo + dim} <= {shape[k]}")
            first_base.append(f"{lo} * {stride[k]}")
            last_base.append(f"{lo} * {stride[k]}")
    if access != elem:   # memory.cuh's aligned(): a one-element access is always aligned
        first = " + ".join(first_base) or "0"
        last = " + ".join(last_base) or "0"
        terms.append(f"({p} + ({first}) * {elem}) % {access} == 0")
        terms.append(f"({p} + ({last}) * {elem}) % {access} == 0")
    return "(" + " and ".join(terms) + ")"


def check_list(words, count: int, rank: int, dims: tuple, aligned16: bool, contiguous: bool) -> bool:
    """pack_array_list's checks (host.hpp) of a list argument's words (per item pointer, shapes,
    strides): the count and every shape and stride within int32, the static extents, and what
    the signature promised of every item."""
    per_item = 1 + 2 * rank
    if not 0 <= count <= INT32_MAX or len(words) < count * per_item:
        return False
    w = words[:count * per_item]
    for at in range(0, len(w), per_item):
        if aligned16 and w[at] % 16:
            return False
        shape, strides = w[at + 1:at + 1 + rank], w[at + 1 + rank:at + per_item]
        if contiguous and rank and strides[-1] != 1:
            return False
        for k in range(rank):
            if not 0 <= shape[k] <= INT32_MAX or dims[k] >= 0 and shape[k] != dims[k]:
                return False
            if not 0 <= strides[k] <= INT32_MAX:
                return False
    return True


def _upload_lines(lists: list[tuple[int, int]]) -> list[str]:
    """Entry lines that upload every list's words (list i of rank r) back to back in one
    stream-ordered copy and name each list's part of it tb<i>, as the generated launcher's
    DeviceTable does; `table` is 0 when there is nothing to upload."""
    if not lists:
        return []
    lines = [f"part{i} = bytes(w{i})[:n{i} * {8 * (1 + 2 * rank)}]" for i, rank in lists]
    lines += [f"words = {' + '.join(f'part{i}' for i, _ in lists)}",
              "table = 0",
              "if words:",
              "    rc, table = upload_table(words, handle)",
              "    if rc:",
              "        return rc"]
    at = "0"
    for i, _ in lists:
        lines.append(f"tb{i} = table + {at}")
        at = f"{at} + len(part{i})"
    return lines


class Loaded:
    """One context's module of a specialization: its kernels and what the launch needs."""

    __slots__ = ("checked", "whole", "use_whole_copy_fits", "smem", "major")


def make_entry(plan: dict, images: dict[str, bytes], lowered: dict[str, str], arch_of_context,
               launch=None, state=None, tables=None, encode=None):
    """The launch entry for one specialization's `plan`, over its cubins (`images`, by
    architecture) and the lowered names of its name expressions. `arch_of_context()` names the
    current device's architecture ("sm_90a"). The module loads into a context at its first
    launch there. `launch` (cuLaunchKernel's signature), `state` (a _ModuleState), `tables`
    (upload_table and free_table, _driver_api's) and `encode` (encode_tensor_map's) stand in for
    the driver in tests."""
    params, kparams = plan["params"], plan["kernel_params"]
    if plan.get("host_launcher_only"):
        raise PlanError(f"the specialization needs its host launcher: {plan['host_launcher_only']}")
    offsets, size, fmt = parameter_layout(kparams)
    env = {"pack_into": struct.pack_into, "Struct": struct.Struct(fmt), "half_bits": half_bits,
           "bfloat16_bits": bfloat16_bits, "float32": float32}
    # The C entry's flat arguments: per array pointer, shapes, strides; per scalar its value.
    args, flat_names, body, lists = [], {}, [], []
    for i, p in enumerate(params):
        if p["kind"] == "array":
            rank = p["rank"]
            names = (f"p{i}", [f"s{i}_{k}" for k in range(rank)], [f"t{i}_{k}" for k in range(rank)])
            flat_names[i] = names
            args += [names[0], *names[1], *names[2]]
            # to_device_array<int32_t>: every shape and stride in [0, INT32_MAX]
            for v in names[1] + names[2]:
                body.append(f"if not 0 <= {v} <= {INT32_MAX}: return {INVALID_VALUE}")
            for k, d in enumerate(p["static_dims"]):
                if d is not None:
                    body.append(f"if {names[1][k]} != {d}: return {INVALID_VALUE}")
            if p["aligned16"]:
                body.append(f"if {names[0]} % 16: return {MISALIGNED_ADDRESS}")
            if p["contiguous"] and rank:
                body.append(f"if {names[2][rank - 1]} != 1: return {INVALID_VALUE}")
            for k, s in enumerate(p["static_strides"]):
                if s is not None:
                    body.append(f"if {names[2][k]} != {s}: return {INVALID_VALUE}")
        elif p["kind"] == "scalar":
            flat_names[i] = f"v{i}"
            args.append(f"v{i}")
        elif p["kind"] == "list":
            # The C entry's (int64 words, item count); the kernel's (its part of the uploaded
            # table, the count).
            flat_names[i] = (f"w{i}", f"n{i}", f"tb{i}")
            args += [f"w{i}", f"n{i}"]
            lists.append((i, p["rank"]))
            env[f"LD{i}"] = tuple(-1 if d is None else d for d in p["static_dims"])
            body.append(f"if not check_list(w{i}, n{i}, {p['rank']}, LD{i}, {p['aligned16']}, "
                        f"{p['contiguous']}): return {INVALID_VALUE}")
        else:
            raise PlanError(f"parameter kind {p['kind']}")
    # `values` packs in one call; struct rounds a float to float32 itself and refuses only
    # values beyond its range, which the C entry's `float` parameter takes as inf: `safe` then.
    values, safe, map_lines = [], [], []
    for kp in kparams:
        v = kp["value"]
        if "tensor_maps" in v:
            # The struct's bytes, encoded for this launch's arguments (_tensor_maps), as the
            # generated launcher encodes them before its launch.
            j = len(map_lines)
            try:
                env[f"maps{j}"] = maps = _tensor_maps.TensorMapsParam(kp, flat_names, encode)
            except (KeyError, TypeError, ValueError) as e:
                raise PlanError(f"tensor maps of {v['tensor_maps'].get('name')}: {e}") from None
            map_lines.append(f"tm{j} = maps{j}(L.major{''.join(', ' + n for n in maps.names)})")
            values.append(f"tm{j}")
            safe.append(f"tm{j}")
            continue
        if "grid" in v:
            values.append("gx")
            safe.append("gx")
            continue
        p, names = params[v["param"]], flat_names[v["param"]]
        if p["kind"] == "scalar":
            conv = {"float16": "half_bits", "bfloat16": "bfloat16_bits"}.get(kp["type"])
            values.append(f"{conv}({names})" if conv else names)
            safe.append(f"float32({names})" if kp["type"] == "float32" else values[-1])
        elif p["kind"] == "list":
            values.append(names[2] if v["part"] == "table" else names[1])
            safe.append(values[-1])
        elif v["part"] == "data":
            values.append(names[0])
            safe.append(names[0])
        else:
            values.append((names[1] if v["part"] == "shape" else names[2])[v["axis"]])
            safe.append(values[-1])
    checks, body = body, []
    tests = [_whole_test_text(t, params, flat_names) for t in plan["whole_tests"]]
    if tests and "whole" in plan["kernels"]:
        body.append(f"whole = L.use_whole_copy_fits and {' and '.join(tests)}")
    else:
        body.append("whole = False")
    bpc = plan["blocks_per_cta"]
    ctas_x = "gx" if bpc == 1 else f"(gx + {bpc - 1}) // {bpc}"
    threads, whole_threads = plan["threads"], plan["whole_threads"]
    lines = [f"def entry(handle, gx, gy, gz{''.join(', ' + a for a in args)}):",
             f"    if not (0 < gx <= {MAX_GRID_DIM} and 0 < gy <= {MAX_GRID_DIM} and 0 < gz <= {MAX_GRID_DIM}):",
             f"        return {INVALID_CONFIGURATION}",
             *[f"    {line}" for line in checks],
             "    L = loaded()",
             "    if L is None:",
             f"        return {NO_KERNEL_IMAGE}",
             *[f"    {line}" for line in body],
             *[f"    {line}" for line in map_lines],
             *[f"    {line}" for line in _upload_lines(lists)],
             "    buf, pointers = buffers()",
             "    try:",
             f"        Struct.pack_into(buf, 0{''.join(', ' + v for v in values)})",
             "    except (struct_error, OverflowError):",
             "        try:",
             f"            Struct.pack_into(buf, 0{''.join(', ' + v for v in safe)})",
             "        except (struct_error, OverflowError):",
             *(["            if table:", "                free_table(table, handle)"] if lists else []),
             f"            return {INVALID_VALUE}",
             "    if whole:",
             f"        rc = launch(L.whole, {ctas_x}, gy, gz, {whole_threads}, 1, 1, L.smem, handle, pointers, None)",
             "    else:",
             f"        rc = launch(L.checked, {ctas_x}, gy, gz, {threads}, 1, 1, L.smem, handle, pointers, None)",
             *(["    if table:", "        free_table(table, handle)"] if lists else []),
             "    return rc"]
    text = "\n".join(lines) + "\n"

    state = state or _ModuleState(plan, images, lowered, arch_of_context, offsets, size)
    def first_launch(*launch_args):   # the driver, asked at the first launch, not at build time
        env["launch"] = _driver_api.lib().cuLaunchKernel
        return env["launch"](*launch_args)

    table_upload, table_free = tables or (_driver_api.upload_table, _driver_api.free_table)
    env.update(loaded=state.loaded, buffers=state.buffers, launch=launch or first_launch,
               struct_error=struct.error, check_list=check_list, upload_table=table_upload,
               free_table=table_free)
    exec(compile(text, f"<tile2cu NVRTC launch of {plan['spec']}>", "exec"), env)  # noqa: S102
    entry = env["entry"]
    entry.source_text = text
    return entry


def image_for(images: dict[str, bytes], arch: str) -> bytes | None:
    """The cubin of `images` (by target: "sm_90", "sm_90a") that runs on a device of `arch`
    (what _device._arch_name calls it: "sm_90a" on Hopper): its own, else the newest one built
    for the same major version and no later minor without architecture-specific features, as a
    cubin runs on later minors of its major (TILE2CU_ARCH=sm_90 builds "sm_90" for an H100)."""
    if arch in images:
        return images[arch]
    match = re.fullmatch(r"sm_(\d+)(\d)([af]?)", arch)
    if not match:
        return None
    major, minor = int(match[1]), int(match[2])
    runs_here = []
    for target in images:
        m = re.fullmatch(r"sm_(\d+)(\d)", target)
        if m and int(m[1]) == major and int(m[2]) <= minor:
            runs_here.append((int(m[2]), target))
    return images[max(runs_here)[1]] if runs_here else None


class _ModuleState:
    """Per context: the loaded module's kernels (loaded at the first launch in that context);
    per thread: the parameter buffer, the pointers cuLaunchKernel reads the values through, and
    the box the current context is read into."""

    def __init__(self, plan, images, lowered, arch_of_context, offsets, size):
        self.plan, self.images, self.lowered = plan, images, lowered
        self.arch_of_context = arch_of_context
        self.offsets, self.size = offsets, size
        self.by_context: dict[int, Loaded | None] = {}
        self.lock = threading.Lock()
        self.local = threading.local()
        self.get_current = None

    def buffers(self):
        try:
            return self.local.b
        except AttributeError:
            buf = ctypes.create_string_buffer(max(self.size, 1))
            base = ctypes.addressof(buf)
            pointers = (ctypes.c_void_p * max(len(self.offsets), 1))(*[base + o for o in self.offsets])
            self.local.b = (buf, pointers)
            return self.local.b

    def loaded(self):
        if self.get_current is None:
            self.get_current = _driver_api.lib().cuCtxGetCurrent
        try:
            box, ref = self.local.ctx
        except AttributeError:
            box = ctypes.c_void_p()
            box, ref = self.local.ctx = (box, ctypes.byref(box))
        self.get_current(ref)   # one driver call per launch: the thread's current context
        ctx = box.value or _driver_api.current_context()
        state = self.by_context.get(ctx, False)
        if state is False:
            with self.lock:
                state = self.by_context.get(ctx, False)
                if state is False:
                    state = self._load()
                    self.by_context[ctx] = state
        return state

    def _load(self) -> Loaded | None:
        image = image_for(self.images, self.arch_of_context())
        if image is None:
            return None
        module = _driver_api.load_module(image)
        plan, kernels = self.plan, self.plan["kernels"]
        L = Loaded()
        L.checked = _driver_api.get_function(module, self.lowered[kernels["checked"]])
        L.whole = (_driver_api.get_function(module, self.lowered[kernels["whole"]])
                   if "whole" in kernels else L.checked)
        major, _ = _driver_api.current_compute_capability()
        L.major = major
        L.smem = plan["hopper_dynamic_smem_bytes"] if major >= 9 else plan["dynamic_smem_bytes"]
        if L.smem:
            for fn in {L.checked, L.whole}:
                _driver_api.set_max_dynamic_smem(fn, L.smem)
        # keeps_occupancy (memory.cuh): the whole copy runs only where it keeps as many threads
        # on an SM as the checked one; asked with no dynamic shared memory, as the launcher does.
        L.use_whole_copy_fits = False
        if "whole" in kernels:
            whole = _driver_api.max_active_blocks(L.whole, plan["whole_threads"], 0)
            checked = _driver_api.max_active_blocks(L.checked, plan["occupancy_checked_threads"], 0)
            L.use_whole_copy_fits = (whole is not None and checked is not None and
                                     whole * plan["whole_threads"] >= checked * plan["occupancy_checked_threads"])
        return L


def specialization(plan_file: dict, spec: str) -> dict:
    """The plan of `spec` in a plan file, checking the format."""
    if plan_file.get("format") != FORMAT:
        raise PlanError(f"launch plan format {plan_file.get('format')} (this launcher reads {FORMAT})")
    for s in plan_file["specializations"]:
        if s["spec"] == spec:
            return s
    raise PlanError(f"no specialization {spec} in the launch plan")
