#!/usr/bin/env python3
"""Exports real cuTile's kernels for every sample specialization as cubins, on the CPU.

    cutile_export_cubins.py OUTDIR [--arch sm_90] [--venv DIR]

For each samples/X.sigs line `spec = kernel(...)`, the KernelSignature comes from
python/tile2cu_sig with assumptions="fresh_arrays" (what tile2cu's signature says, plus what
the arrays of tests/gpu satisfy and cuTile's own launch would assume of them: 16-byte aligned
bases, no aliasing), valid for every size the checks use. Where tests/gpu/cutile_launch_symbols.json
records the signature cuTile's own launch derived on the GPU for a specialization's benchmark
inputs, that signature is exported too (<spec>.launch.cubin): it is what the timing uses. `cuda.tile.compilation.export_kernel` writes OUTDIR/<spec>.cubin (and the
Tile IR bytecode, <spec>.tileirbc), and
OUTDIR/manifest.json records per spec the symbol, the thread count the cubin requires (read from
the cubin), the parameters and the tool versions. tests/gpu/cutile_side_by_side.py launches them.
Runs itself inside the cuTile environment of tests/cutile_diff (exit 77 when it cannot be made).
"""
import argparse
import importlib.metadata as md
import json
import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests" / "cutile_diff"), str(ROOT / "python")]
import cutile_env  # noqa: E402

LAUNCH_SYMBOLS = ROOT / "tests" / "gpu" / "cutile_launch_symbols.json"
EIATTR_REQNTID = 0x10  # .nv.info attribute: the block size the kernel was compiled for
EIFMT_SVAL = 0x04


def required_threads(cubin: bytes, symbol: str):
    """(x, y, z) from the cubin's .nv.info.<symbol> section (ELF64), or None."""
    shoff, = struct.unpack_from("<Q", cubin, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", cubin, 0x3A)
    sections = [struct.unpack_from("<IIQQQQ", cubin, shoff + i * shentsize) for i in range(shnum)]
    names_off = sections[shstrndx][4]

    def name(off):
        end = cubin.index(b"\0", names_off + off)
        return cubin[names_off + off:end].decode()
    for sh_name, _, _, _, off, size in sections:
        if name(sh_name) != f".nv.info.{symbol}":
            continue
        p = off
        while p < off + size:
            fmt, attr = cubin[p], cubin[p + 1]
            if fmt == EIFMT_SVAL:
                n, = struct.unpack_from("<H", cubin, p + 2)
                if attr == EIATTR_REQNTID:
                    return struct.unpack_from("<III", cubin, p + 4)
                p += 4 + n
            else:
                p += 4 if fmt in (0x02, 0x03) else 2
    return None


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("outdir")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--venv", default=str(ROOT / "build" / "cutile-venv"))
    ap.add_argument("--launch-symbols", default=str(LAUNCH_SYMBOLS),
                    help="symbols cuTile's own launch derived on the GPU (default: %(default)s)")
    opts = ap.parse_args(argv)
    cutile_env.reexec_in_venv(Path(opts.venv), __file__, argv)

    import cuda.tile as ct
    from cuda.tile.compilation import demangle_kernel_name, export_kernel
    from run_diff import load_module, sidecar_kernels
    from tile2cu_sig import format_signature, parse_sidecar
    from tile2cu_sig.cutile import kernel_param_names, to_kernel_signature

    out = Path(opts.outdir)
    out.mkdir(parents=True, exist_ok=True)
    manifest = {"cuda_tile": ct.__version__, "tileiras": md.version("nvidia-cuda-tileiras"),
                "arch": opts.arch, "assumptions": "fresh_arrays", "specs": {}}
    launch = {}
    if Path(opts.launch_symbols).exists():
        launch = json.loads(Path(opts.launch_symbols).read_text())["bench_symbols"]
    failed = 0
    for py, sigs in sidecar_kernels(""):
        if py.parent != ROOT / "samples":
            continue
        module = load_module(py)
        for _, sig in parse_sidecar(sigs.read_text()):
            kernel = getattr(module, sig.kernel)
            names = kernel_param_names(kernel)
            ks = to_kernel_signature(sig, names, assumptions="fresh_arrays")
            path = out / f"{sig.spec_name}.cubin"
            try:
                export_kernel(kernel, [ks], str(path), gpu_code=opts.arch, output_format="cubin")
            except Exception as e:  # noqa: BLE001 - report and go on
                failed += 1
                print(f"FAIL {sig.spec_name}: {type(e).__name__}: {e}")
                continue
            # The Tile IR bytecode too: the fallback when a driver cannot load the cubin.
            export_kernel(kernel, [ks], str(path.with_suffix(".tileirbc")), gpu_code=opts.arch,
                          output_format="tileir_bytecode")
            threads = required_threads(path.read_bytes(), ks.symbol)
            manifest["specs"][sig.spec_name] = {
                "sample": py.stem, "kernel": sig.kernel, "symbol": ks.symbol,
                "cubin": path.name, "bytecode": path.with_suffix(".tileirbc").name,
                "threads": threads, "params": names,
                "signature": format_signature(sig)}
            print(f"ok   {sig.spec_name}: {ks.symbol} threads={threads}")
            recorded = launch.get(sig.spec_name, {}).get("symbol", "")
            if recorded.startswith(sig.kernel + "_K"):
                # The very signature cuTile's launch derived on the GPU for the benchmark inputs.
                name, lks = demangle_kernel_name(recorded)
                lpath = out / f"{sig.spec_name}.launch.cubin"
                export_kernel(kernel, [lks.with_symbol(recorded)], str(lpath), gpu_code=opts.arch,
                              output_format="cubin")
                manifest["specs"][sig.spec_name]["launch"] = {
                    "case": launch[sig.spec_name]["case"], "symbol": recorded,
                    "cubin": lpath.name, "threads": required_threads(lpath.read_bytes(), recorded)}
                print(f"     + launch signature {recorded}")
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")
    print(f"{len(manifest['specs'])} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
