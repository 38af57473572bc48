#!/usr/bin/env python3
"""Real cuTile and tile2cu side by side on the GPU: the same inputs, outputs compared, both timed.

    cutile_side_by_side.py --gen GEN --cubins CUBINS [--runtime DIR] [--commit C] [--only a,b]

GEN holds tile2cu's <sample>.cu/.cuh (built here with nvcc, as tests/gpu/run_samples.py does);
CUBINS holds real cuTile's kernels exported on the CPU by tests/gpu/cutile_export_cubins.py
(cuda.tile.compilation.export_kernel, one cubin per specialization, manifest.json). The cubins
are loaded with the CUDA driver API and launched with cuTile's calling convention
(cutile_python_v2: parameters in order, Constants left out, each array as base pointer, int32
shapes, int32 strides) and the block size each cubin requires. This is how the comparison runs
where cuTile's own JIT cannot (it needs tileiras, libnvvm and ptxas on the GPU machine; see
docs/cutile-reference.md). When the cuda-tile package is importable, the script also records
which KernelSignature cuTile's own launch would have derived from the benchmark arguments
(`KernelSignature.from_kernel_args`) and what `ct.launch` itself says there.

For every specialization of every sample (tests/gpu/run_samples.py describes inputs, grids and
float64 references): each check size runs both kernels on the same fresh random inputs, outputs
poisoned before each run; each output is checked against the reference with run_samples.py's
dtype tolerances and the two outputs are compared with each other (bit-exact required for
integer outputs and for samples whose arithmetic is exact). Then both are timed at the benchmark
size in the same process (CUDA events, warm-up, median, twice in alternating order, the lower
median kept). Ratio = cuTile ms / tile2cu ms (above 1: tile2cu faster).

Writes $OUT/cutile_side_by_side.json and .md when OUT is set; exits non-zero on any mismatch.
"""
import argparse
import ctypes
import datetime
import json
import os
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import run_samples as rs  # noqa: E402

torch = None
# Samples whose every operation is exact (one correctly rounded op per element, or data movement):
# tile2cu and cuTile must agree bit for bit there, whatever the dtype.
EXACT_SAMPLES = {"vector_add", "ragged_padding"}
SCALAR_CTYPES = {"float32": ctypes.c_float, "float64": ctypes.c_double, "int8": ctypes.c_int8,
                 "int16": ctypes.c_int16, "int32": ctypes.c_int32, "int64": ctypes.c_int64,
                 "uint8": ctypes.c_uint8, "uint16": ctypes.c_uint16, "uint32": ctypes.c_uint32,
                 "uint64": ctypes.c_uint64, "bool": ctypes.c_bool}
BITS_VIEW = {1: "int8", 2: "int16", 4: "int32", 8: "int64"}


class Driver:
    """The few CUDA driver calls needed to load a cubin and launch from it."""

    def __init__(self):
        lib = ctypes.CDLL("libcuda.so.1")
        P = ctypes.POINTER
        lib.cuModuleLoadData.argtypes = [P(ctypes.c_void_p), ctypes.c_void_p]
        lib.cuModuleGetFunction.argtypes = [P(ctypes.c_void_p), ctypes.c_void_p, ctypes.c_char_p]
        lib.cuLaunchKernel.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 7 + [
            ctypes.c_void_p, P(ctypes.c_void_p), P(ctypes.c_void_p)]
        lib.cuGetErrorString.argtypes = [ctypes.c_int, P(ctypes.c_char_p)]
        lib.cuDriverGetVersion.argtypes = [P(ctypes.c_int)]
        self.lib = lib

    def check(self, rc, what):
        if rc != 0:
            s = ctypes.c_char_p()
            self.lib.cuGetErrorString(rc, ctypes.byref(s))
            raise RuntimeError(f"{what}: CUresult {rc} ({(s.value or b'?').decode()})")

    def version(self):
        v = ctypes.c_int()
        self.check(self.lib.cuDriverGetVersion(ctypes.byref(v)), "cuDriverGetVersion")
        return v.value


class CubinRunner:
    """Launches real cuTile's exported kernels (same interface as run_samples' runners).
    variant "declared": the cubin for tile2cu's signature (valid for every checked size);
    "launch": the cubin for the signature cuTile's own launch derived for the benchmark inputs."""

    def __init__(self, cubins, driver, variant="declared"):
        self.dir = Path(cubins)
        self.manifest = json.loads((self.dir / "manifest.json").read_text())
        self.drv = driver
        self.variant = variant
        self.label = "cuTile" if variant == "declared" else "cuTile-launch"
        self.funcs, self.errors, self._keep = {}, {}, []
        self.loaded, self.load_problems = {}, {}  # spec -> "cubin" | "bytecode"; failures

    def prepare(self, samples):
        for name, m in self.manifest["specs"].items():
            if m["sample"] not in samples or (self.variant == "launch" and "launch" not in m):
                continue
            m = m if self.variant == "declared" else dict(m["launch"], bytecode="-")
            problems = []
            for kind in ("cubin", "bytecode"):  # the bytecode only if the cubin will not load
                try:
                    image = ctypes.create_string_buffer((self.dir / m[kind]).read_bytes())
                    mod, fn = ctypes.c_void_p(), ctypes.c_void_p()
                    self.drv.check(self.drv.lib.cuModuleLoadData(ctypes.byref(mod), image),
                                   f"cuModuleLoadData({m[kind]})")
                    self.drv.check(self.drv.lib.cuModuleGetFunction(
                        ctypes.byref(fn), mod, m["symbol"].encode()), "cuModuleGetFunction")
                    self._keep.append(image)
                    self.funcs[name] = fn
                    self.loaded[name] = kind
                    break
                except (RuntimeError, KeyError, OSError) as e:
                    problems.append(f"{kind}: {e}")
            self.load_problems[name] = problems if name not in self.funcs else []
            if name not in self.funcs:
                self.errors[name] = "; ".join(problems)

    def entry(self, spec):
        m = self.manifest["specs"][spec.name]
        return m if self.variant == "declared" else m["launch"]

    def unavailable(self, spec):
        m = self.manifest["specs"].get(spec.name)
        if m is None or (self.variant == "launch" and "launch" not in m):
            return f"no {self.variant} cubin exported for this specialization"
        return self.errors.get(spec.name)

    def bind(self, spec, grid, args):
        rs.check_args(spec, args)
        m = self.entry(spec)
        held = []
        for p in spec.order:
            c = spec.params[p]
            if c.kind == "array":
                v = args[p]
                held.append(ctypes.c_void_p(v.data_ptr()))
                held += [ctypes.c_int32(int(s)) for s in v.shape]
                held += [ctypes.c_int32(int(s)) for s in v.stride()]
            elif c.kind == "scalar":
                if c.dtype in ("float16", "bfloat16"):
                    bits = torch.tensor(args[p], dtype=rs.torch_dtype(c.dtype)).view(torch.int16)
                    held.append(ctypes.c_uint16(int(bits.item()) & 0xFFFF))
                else:
                    held.append(SCALAR_CTYPES[c.dtype](args[p]))
        params = (ctypes.c_void_p * len(held))(
            *[ctypes.cast(ctypes.pointer(h), ctypes.c_void_p) for h in held])
        g = rs.grid3(grid)
        t = m["threads"] or [128, 1, 1]
        fn, lib = self.funcs[spec.name], self.drv.lib
        stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)

        def launch():
            _ = held  # the argument values must outlive every launch
            return lib.cuLaunchKernel(fn, g[0], g[1], g[2], t[0], t[1], t[2], 0, stream,
                                      params, None)
        return launch


# ------------------------------------------------------------------------------------------------

def bit_diff(a, b):
    """(number of elements whose bits differ, max |a - b| over elements that are not NaN)"""
    size = a.element_size()
    ia = a.contiguous().view(getattr(torch, BITS_VIEW[size]))
    ib = b.contiguous().view(getattr(torch, BITS_VIEW[size]))
    n = int((ia != ib).sum().item())
    d = (a.double() - b.double()).abs()
    d = d[~torch.isnan(d)]
    return n, (float(d.max().item()) if d.numel() else 0.0)


def run_pair(runners, sample, spec, case, seed):
    ctx = rs.make_ctx(seed)
    args = sample.build(spec, case, ctx)
    refs = sample.reference(spec, case, args)
    grid = sample.grid(spec, case, args)
    res = {"case": case["label"], "grid": rs.grid3(grid), "ok": True}
    kept = {}
    for label, runner in runners:
        call = runner.bind(spec, grid, args)
        for b in ctx.outputs.values():
            b.poison(0)
        rs.sync_or_raise()
        rc = call()
        if rc != 0:
            res[label] = {"error": f"launch returned {rc}"}
            res["ok"] = False
            continue
        rs.sync_or_raise()
        per = {}
        for o in sample.outputs:
            r = refs[o] if isinstance(refs[o], dict) else {"ref": refs[o]}
            c = rs.compare(args[o], r["ref"], spec.dtype(o), slack=r.get("slack"),
                           exact=r.get("exact", False), zero_sign=r.get("zero_sign", False),
                           norm_tol=r.get("norm_tol"))
            if not ctx.outputs[o].untouched_ok(0):
                c["ok"] = False
                c["first_bad"] = (c.get("first_bad") or "") + " [wrote outside the array]"
            per[o] = {"ok": c["ok"], "max_err": c["max_err"], "first_bad": c.get("first_bad")}
            res["ok"] &= bool(c["ok"])
            kept.setdefault(label, {})[o] = args[o].clone()
        res[label] = per
    if len(kept) == 2:
        res["cross"] = {}
        first, second = (kept[label] for label, _ in runners)
        for o in sample.outputs:
            n, mx = bit_diff(first[o], second[o])
            exact = sample.name in EXACT_SAMPLES or spec.dtype(o) not in rs.FLOAT_DTYPES
            res["cross"][o] = {"differing": n, "max_abs_diff": mx, "exact_required": exact,
                               "elements": first[o].numel()}
            if exact and n:
                res["ok"] = False
        if not res["ok"] and all(x["differing"] == 0 for x in res["cross"].values()):
            res["note"] = "bit-identical outputs from both compilers, outside the reference tolerance"
    del args, refs, ctx, kept
    return res


def bench_pair(runners, launch_runner, sample, spec, seed, opts):
    """Times every runner on the benchmark inputs; cuTile's launch-signature cubin joins when it
    was exported for exactly the signature cuTile's launch derives from these inputs."""
    case = sample.bench_case(spec)
    torch.cuda.empty_cache()
    sets = [sample.build(spec, case, rs.make_ctx(rs.case_seed(seed, spec.name, "bench", 0)))]
    wset = rs.working_set_bytes(sets[0])
    nsets = 1
    if wset < 4 * rs.DEVICE["l2"]:  # rotate through fresh copies so L2 holds none of them
        nsets = min(64, rs.cdiv(4 * rs.DEVICE["l2"], max(wset, 1)) + 1)
        for i in range(1, nsets):
            sets.append(sample.build(spec, case,
                                     rs.make_ctx(rs.case_seed(seed, spec.name, "b", i))))
    grid = sample.grid(spec, case, sets[0])
    symbol = launch_signature(sample, spec, sets[0])
    launch_used = (not launch_runner.unavailable(spec)
                   and launch_runner.entry(spec)["symbol"] == symbol)
    if launch_used:
        runners = runners + [(launch_runner.label, launch_runner)]
    calls = {label: [r.bind(spec, grid, a) for a in sets] for label, r in runners}
    best = {}
    iters = max(50, opts.iters)
    for rep in range(2):
        order = runners if rep == 0 else list(reversed(runners))
        for label, _ in order:
            fns = calls[label]

            def run(i, fns=fns, label=label):
                rc = fns[i % nsets]()
                if rc != 0:
                    raise RuntimeError(f"{label} {spec.name} returned {rc} during timing")
            ms, _ = rs.time_ms(run, opts.warmup, iters)
            best[label] = min(best.get(label, ms), ms)
    # cuTile's faster cubin is the one to beat (with more assumptions it is not always faster).
    basis = min(("cuTile-launch", "cuTile"), key=lambda k: best.get(k, float("inf")))
    ref = best[basis]
    out = {"case": case["label"], "buffer_sets": nsets, "bytes_per_call": wset,
           "tile2cu_ms": best["tile2cu"], "cutile_declared_ms": best["cuTile"],
           "cutile_launch_ms": best.get("cuTile-launch"), "cutile_ms": ref,
           "ratio": ref / best["tile2cu"],
           "ratio_basis": "launch signature" if basis == "cuTile-launch" else "declared signature",
           "launch_signature": symbol, "launch_cubin_used": launch_used}
    del sets, calls
    torch.cuda.empty_cache()
    return out


def launch_signature(sample, spec, args):
    """The symbol cuTile's own launch would compile for these arguments, when cuda-tile imports."""
    try:
        import cuda.tile as ct  # noqa: F401
        from cuda.tile.compilation import CallingConvention, KernelSignature
        mod = load_sample(spec.sample)
        kernel = getattr(mod, spec.kernel)
        vals = tuple(spec.params[p].value if spec.params[p].kind == "const" else args[p]
                     for p in spec.order)
        return KernelSignature.from_kernel_args(kernel, vals,
                                                CallingConvention.cutile_python_v2()).symbol
    except Exception as e:  # noqa: BLE001 - recorded, not fatal
        return f"unavailable: {type(e).__name__}: {str(e).splitlines()[0][:200]}"


_modules = {}


def load_sample(name):
    if name not in _modules:
        import importlib.util
        path = Path(rs.REPO) / "samples" / f"{name}.py"
        spec = importlib.util.spec_from_file_location(f"sbs_{name}", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        _modules[name] = mod
    return _modules[name]


def probe_ct_launch():
    """What real cuTile's own JIT launch does on this machine (vector_add, 1000 elements)."""
    try:
        import cuda.tile as ct
        mod = load_sample("vector_add")
        a = torch.randn(1000, device="cuda")
        c = torch.empty_like(a)
        ct.launch(torch.cuda.current_stream(), (1, 1, 1), mod.vector_add, (a, a, c, 1024))
        torch.cuda.synchronize()
        return "ran: " + ("correct" if torch.equal(c, a + a) else "WRONG RESULT")
    except Exception as e:  # noqa: BLE001
        return f"{type(e).__name__}: {' '.join(str(e).split())[:400]}"


def _cross_summary(cases, exact):
    picked = [x for c in cases for x in c.get("cross", {}).values() if x["exact_required"] == exact]
    if not picked:
        return "-"
    n = sum(x["differing"] for x in picked)
    total = sum(x["elements"] for x in picked)
    if n == 0:
        return "bit-identical"
    return f"{n} of {total} differ, max {max(x['max_abs_diff'] for x in picked):.2e}"


def render(report):
    lines = [
        f"## Real cuTile vs tile2cu on {report['device']}",
        "",
        f"Date {report['date']}, commit {report['commit']}, driver {report['driver']}, "
        f"torch {report['torch']}, nvcc {report['nvcc']}; cuTile {report['cuda_tile']} with "
        f"tileiras {report['tileiras']} (cubins for {report['cutile_arch']}, exported on the CPU); "
        f"tile2cu built for {report['tile2cu_arch']}. Seed {report['seed']}.",
        "",
        f"cuTile kernels loaded from: {', '.join(sorted(set(report['loaded'].values()))) or 'none'}"
        f" (CUDA driver API). cuTile's own `ct.launch` here: {report['ct_launch']}",
        "",
        "Outputs of the two compared with each other on the same inputs: 'exact' = integer outputs"
        " and samples whose arithmetic is exact (must be bit-identical), 'float' = the rest (each"
        " also checked against the float64 reference). cuTile ms: the cubin for the signature "
        "cuTile's own launch derives from the benchmark inputs ('launch') and the one for "
        "tile2cu's declared signature ('declared'); the ratio takes the faster of the two. "
        "Ratio above 1: tile2cu faster.",
        "",
        "| sample | spec | sizes checked | vs reference | exact outputs | float outputs |"
        " bench size | cuTile ms (declared) | cuTile ms (launch) | tile2cu ms | cuTile/tile2cu |",
        "|---|---|---|---|---|---|---|---:|---:|---:|---:|",
    ]
    for r in report["results"]:
        cases = r.get("cases", [])
        sizes = ", ".join(c["case"] for c in cases) or "-"
        b = r.get("bench") or {}

        def fmt(k):
            return f"{b[k]:.3f}" if b.get(k) is not None else "-"
        lines.append(f"| {r['sample']} | {r['spec']} | {sizes} | {r['status']} | "
                     f"{_cross_summary(cases, True)} | {_cross_summary(cases, False)} | "
                     f"{b.get('case', '-')} | {fmt('cutile_declared_ms')} | "
                     f"{fmt('cutile_launch_ms')} | {fmt('tile2cu_ms')} | {fmt('ratio')} |")
        if r.get("error"):
            lines.append(f"| | | error: {r['error'][:200]} | | | | | | | | |")
        for c in cases:
            if not c["ok"]:
                lines.append(f"| | | failed: {c['case']} | {c.get('note', 'see the JSON')} "
                             "| | | | | | | |")
    return "\n".join(lines) + "\n"


def main(argv=None):
    global torch
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gen", required=True)
    ap.add_argument("--cubins", required=True)
    ap.add_argument("--runtime", default=str(Path(rs.REPO) / "runtime"))
    ap.add_argument("--arch", default="sm_90a", help="tile2cu's nvcc target")
    ap.add_argument("--commit", default="unknown")
    ap.add_argument("--only", default="")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--iters", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 4)
    opts = ap.parse_args(argv)
    import torch as _torch
    torch = rs.torch = _torch
    if not torch.cuda.is_available():
        print("no GPU: skipped")
        return 0
    torch.zeros(1, device="cuda")  # the primary context, current on this thread
    props = torch.cuda.get_device_properties(0)
    rs.DEVICE.update(sms=props.multi_processor_count,
                     l2=getattr(props, "L2_cache_size", 50 << 20) or (50 << 20),
                     name=torch.cuda.get_device_name(0))
    seed = opts.seed if opts.seed is not None else int(time.time() * 1000) % (1 << 31)
    drv = Driver()
    only = {s for s in opts.only.split(",") if s}
    found, errors = rs.discover(Path(rs.REPO) / "samples", only)
    tile = rs.Tile2cuRunner(argparse.Namespace(gen=opts.gen, runtime=opts.runtime, arch=opts.arch,
                                               nvcc=None, nvcc_flag=None, jobs=opts.jobs))
    cut = CubinRunner(opts.cubins, drv)
    cut_launch = CubinRunner(opts.cubins, drv, variant="launch")
    samples = [s for s, _ in found]
    tile.prepare(samples)
    cut.prepare(samples)
    cut_launch.prepare(samples)
    runners = [("tile2cu", tile), ("cuTile", cut)]
    report = {"device": rs.DEVICE["name"], "driver": drv.version(), "commit": opts.commit,
              "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
              "torch": torch.__version__, "nvcc": tile.nvcc_version(), "seed": seed,
              "cuda_tile": cut.manifest["cuda_tile"], "tileiras": cut.manifest["tileiras"],
              "cutile_arch": cut.manifest["arch"], "tile2cu_arch": opts.arch,
              "assumptions": cut.manifest["assumptions"], "sidecar_errors": errors,
              "ct_launch": probe_ct_launch(), "loaded": cut.loaded,
              "load_problems": {k: v for r in (cut, cut_launch)
                                for k, v in r.load_problems.items() if v},
              "results": []}
    print(f"device {report['device']}, driver {report['driver']}, seed {seed}", flush=True)
    print(f"ct.launch here: {report['ct_launch']}", flush=True)
    kinds = sorted(set(cut.loaded.values()))
    print(f"cuTile kernels loaded from: {kinds}; load problems: "
          f"{json.dumps(report['load_problems'])[:1500]}", flush=True)
    failed = bool(errors)
    for sample_name, specs in found:
        sample = rs.SAMPLES.get(sample_name)
        for spec in specs:
            r = {"sample": sample_name, "spec": spec.name, "status": "PASS", "cases": []}
            report["results"].append(r)
            why = (None if sample and sample.kernel == spec.kernel
                   else "no test description in run_samples.py")
            why = why or tile.unavailable(spec) or cut.unavailable(spec)
            if why:
                r.update(status="FAIL", error=why)
                failed = True
                print(f"FAIL {spec.name}: {why}", flush=True)
                continue
            try:
                cases = sample.cases(spec, True) + [sample.bench_case(spec)]
                for i, case in enumerate(cases):
                    c = run_pair(runners, sample, spec, case, rs.case_seed(seed, spec.name, i))
                    r["cases"].append(c)
                    if not c["ok"]:
                        r["status"] = "FAIL"
                r["bench"] = bench_pair(runners, cut_launch, sample, spec, seed, opts)
                if r["bench"]["launch_cubin_used"]:  # its outputs checked too
                    c = run_pair([("tile2cu", tile), (cut_launch.label, cut_launch)], sample,
                                 spec, sample.bench_case(spec),
                                 rs.case_seed(seed, spec.name, "launch"))
                    c["case"] += " (launch cubin)"
                    r["cases"].append(c)
                    if not c["ok"]:
                        r["status"] = "FAIL"
            except Exception as e:  # noqa: BLE001 - one failing spec is reported, not fatal
                r.update(status="FAIL", error=f"{type(e).__name__}: {e}")
                traceback.print_exc()
                if isinstance(e, rs.ContextLost):
                    break
            failed |= r["status"] != "PASS"
            b = r.get("bench", {})
            print(f"{r['status']} {spec.name}: {len(r['cases'])} sizes; cuTile "
                  f"({b.get('ratio_basis', '-')}) {b.get('cutile_ms', float('nan')):.3f} ms, tile2cu "
                  f"{b.get('tile2cu_ms', float('nan')):.3f} ms, ratio "
                  f"{b.get('ratio', float('nan')):.2f}", flush=True)
    table = render(report)
    print()
    print(table)
    if os.environ.get("OUT"):
        out = Path(os.environ["OUT"])
        (out / "cutile_side_by_side.json").write_text(json.dumps(report, indent=1, default=str))
        (out / "cutile_side_by_side.md").write_text(table)
    n_pass = sum(r["status"] == "PASS" for r in report["results"])
    print(f"{n_pass} passed, {len(report['results']) - n_pass} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
