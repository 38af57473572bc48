#!/usr/bin/env python3
"""Host cost of a warm `ct.launch` (kernel already built, same signature as the call before), in
microseconds per call.

Without a GPU (the default, `--stub`): the launcher's own Python work. The kernels below are
"built" by a stand-in for _build.build that hands back a C function doing nothing (compiled here
with cc, its argument types set as the real entry's), so a launch still binds its arguments,
checks the grid, finds the specialization and makes one ctypes call. Arguments are stand-ins: a
torch-like tensor (what the launcher reads of torch: is_cuda, dtype, shape, stride(),
data_ptr()) and a CuPy-like array (__cuda_array_interface__).

With `--gpu` (torch and a GPU): the same kernels built for real and launched on torch tensors;
the time per call is host time (the loop, then one synchronize), next to a torch op's.

    python3 tests/gpu/bench_launch_overhead.py [--gpu] [--profile CASE] [--calls N] [--package DIR]

--package times the tile2cu package in DIR instead of this checkout's (an older version, say:
`git archive <rev> python/tile2cu | tar -x -C /tmp/old`, then --package /tmp/old/python).
"""

from __future__ import annotations

import argparse
import ctypes
import os
import subprocess
import sys
import tempfile
import timeit
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
_package = sys.argv[sys.argv.index("--package") + 1] if "--package" in sys.argv else None
sys.path.insert(0, _package or str(REPO / "python"))
os.environ.setdefault("TILE2CU_ARCH", "sm_90")   # the stub needs no driver

import tile2cu.cutile as ct  # noqa: E402
from tile2cu import _build, _kernel  # noqa: E402


@ct.kernel
def copy_rows(x, y, TILE: ct.Constant[int]):
    b = ct.bid(0)
    ct.store(y, index=(b,), tile=ct.load(x, index=(b,), shape=(TILE,)))


@ct.kernel
def fma3(x, y, z, alpha: float, TILE: ct.Constant[int]):
    b = ct.bid(0)
    t = ct.load(x, index=(b,), shape=(TILE,)) * alpha + ct.load(y, index=(b,), shape=(TILE,))
    ct.store(z, index=(b,), tile=t)


# ---- stand-in arrays ----------------------------------------------------------------------------

class FakeTorchDtype:
    def __init__(self, name):
        self._name = name

    def __str__(self):
        return f"torch.{self._name}"


class FakeTorchTensor:
    """Reads like a CUDA torch tensor to the launcher (its type's module starts with "torch")."""

    __module__ = "torch.fake"
    float32 = FakeTorchDtype("float32")

    def __init__(self, shape, ptr=0x7F0000000000):
        self.shape = tuple(shape)
        self.dtype = FakeTorchTensor.float32
        self.is_cuda = True
        self.device = "cuda:0"
        self._ptr = ptr
        self._strides = tuple(_contiguous_strides(self.shape))

    def stride(self):
        return self._strides

    def data_ptr(self):
        return self._ptr


def _contiguous_strides(shape):
    strides, s = [], 1
    for d in reversed(shape):
        strides.append(s)
        s *= d
    return reversed(strides)


class FakeCupyArray:
    def __init__(self, shape, ptr=0x7F0000000000):
        self.__cuda_array_interface__ = {"shape": tuple(shape), "typestr": "<f4",
                                         "data": (ptr, False), "strides": None, "version": 3}


# ---- the stub entry -----------------------------------------------------------------------------

def _noop_library(folder: Path):
    """A shared library with `int noop(void)`: called with the entry's arguments (x86-64 and
    AArch64 callers clean up their own arguments), it returns 0 and does nothing."""
    src, lib = folder / "noop.c", folder / "noop.so"
    src.write_text("int noop(void) { return 0; }\n")
    subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", str(lib), str(src)], check=True)
    return ctypes.CDLL(str(lib))


def install_stub(folder: Path):
    lib = _noop_library(folder)

    def build(source_path, kernel_name, spec_name, signature, archs, argtypes, synthesized=None):
        entry = lib["noop"]   # a new function object per spec, so each keeps its own argtypes
        entry.argtypes = argtypes
        entry.restype = ctypes.c_int
        return _build.Built(entry, folder, None)

    _kernel._build.build = build


# ---- timing -------------------------------------------------------------------------------------

def cases(make):
    n = 4096   # small: on a GPU the kernels must not outrun the host and fill the queue
    x, y, z = make((n,), 0x7F0000000000), make((n,), 0x7F0000400000), make((n,), 0x7F0000800000)
    return {"copy_rows(x, y, TILE)": (copy_rows, (x, y, 1024)),
            "fma3(x, y, z, alpha, TILE)": (fma3, (x, y, z, 0.5, 1024))}


def per_call_us(fn, calls, repeats=7):
    """The fastest of `repeats` rounds (the machine may be busy), in us per call."""
    return min(timeit.repeat(fn, number=calls, repeat=repeats)) / calls * 1e6


def run(makers, stream, calls, sync=None, profile=None):
    rows = []
    for kind, make in makers.items():
        for name, (k, args) in cases(make).items():
            grid = (4,)
            ct.launch(stream, grid, k, args)   # builds (or stub-builds) the specialization

            def one(k=k, args=args):
                ct.launch(stream, grid, k, args)
            us = per_call_us(one, calls)
            if sync:
                sync()
            rows.append((kind, name, us))
            if profile and profile in f"{kind} {name}":
                import cProfile
                import pstats
                pr = cProfile.Profile()
                pr.enable()
                for _ in range(calls):
                    one()
                pr.disable()
                pstats.Stats(pr).sort_stats("tottime").print_stats(12)
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpu", action="store_true", help="real kernels on torch tensors")
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--profile", help="cProfile the case whose 'kind name' contains this")
    ap.add_argument("--package", help="the folder holding the tile2cu package to time")
    a = ap.parse_args()
    if a.gpu:
        import torch
        def make(shape, ptr):
            return torch.empty(shape, device="cuda", dtype=torch.float32)
        stream = torch.cuda.current_stream()
        rows = run({"torch": make}, stream, a.calls, torch.cuda.synchronize, a.profile)
        x = torch.empty(4096, device="cuda")
        rows.append(("torch", "x.add_(1.0) (torch's own)", per_call_us(lambda: x.add_(1.0), a.calls)))
        torch.cuda.synchronize()
    else:
        with tempfile.TemporaryDirectory() as d:
            os.environ["TILE2CU_CACHE_DIR"] = d
            install_stub(Path(d))
            rows = run({"torch-like": FakeTorchTensor, "CuPy-like": FakeCupyArray}, 0, a.calls,
                       None, a.profile)
    print(f"{'arguments':<12} {'kernel call':<30} {'us/call':>8}")
    for kind, name, us in rows:
        print(f"{kind:<12} {name:<30} {us:8.2f}")


if __name__ == "__main__":
    main()
