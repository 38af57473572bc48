"""Runs generated kernels' C entry points on the GPU for run_gpu_oracle.py.

    gpu_worker.py JOB.json

JOB.json: {"programs": [{"name", "library" (.so), "params", "sig", "case", "out"}]}. For each
program, in order, the worker writes OUT.started, runs the entry tile2cu_<name>_s(stream, gx, gy,
gz, flat args...) on the case's inputs (arrays: pointer, extents, strides in elements; scalars by
C type, float16 as float; Constants left out), and writes the written arrays to OUT (.npz). A
kernel that breaks the CUDA context ends the worker: the parent sees OUT.started without OUT
and starts another worker for the programs after it."""
import ctypes
import json
import sys

import numpy as np

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from reference import inputs  # noqa: E402

CTYPES = {"int32": ctypes.c_int32, "int64": ctypes.c_int64, "float16": ctypes.c_float,
          "bfloat16": ctypes.c_float, "float32": ctypes.c_float, "float64": ctypes.c_double,
          "int8": ctypes.c_int8, "int16": ctypes.c_int16, "uint8": ctypes.c_uint8,
          "uint16": ctypes.c_uint16, "uint32": ctypes.c_uint32, "uint64": ctypes.c_uint64,
          "bool_": ctypes.c_bool}
VIA_FLOAT32 = ("bfloat16", "float8_e4m3fn", "float8_e5m2")


def torch_dtype(torch, name):
    return torch.bool if name == "bool_" else getattr(torch, name)


def to_device(torch, dtype, array):
    t = torch.from_numpy(np.ascontiguousarray(array))
    if dtype in VIA_FLOAT32:
        t = t.to(torch_dtype(torch, dtype))  # values are representable: exact
    return t.cuda()


def to_host(torch, dtype, tensor):
    t = tensor.cpu()
    if dtype in VIA_FLOAT32:
        t = t.to(torch.float32)
    return t.numpy()


def run_program(torch, lib, prog):
    case = np.load(prog["case"], allow_pickle=False)
    meta = json.loads(str(case["meta"]))
    sig = inputs.parse_signature(prog["sig"])
    fn = getattr(lib(prog["library"]), f"tile2cu_{prog['name']}_s")
    types = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint, ctypes.c_uint]
    flat = [torch.cuda.current_stream().cuda_stream, *meta["grid"]]
    tensors = {}
    for p in prog["params"]:
        kind = sig[p][0]
        if kind == "array":
            dtype = sig[p][1]
            t = to_device(torch, dtype, case["in_" + p])
            tensors[p] = (dtype, t)
            types += [ctypes.c_void_p] + [ctypes.c_int64] * (2 * t.dim())
            flat += [t.data_ptr(), *t.shape, *t.stride()]
        elif kind == "scalar":
            dtype, value = meta["scalars"][p]
            types.append(CTYPES[dtype])
            flat.append(value)
    fn.argtypes, fn.restype = types, ctypes.c_int
    torch.cuda.synchronize()
    rc = fn(*flat)
    torch.cuda.synchronize()
    result = {f"out_{n}": to_host(torch, tensors[n][0], tensors[n][1]) for n in meta["outputs"]}
    np.savez(prog["out"], rc=np.int64(rc), **result)


def main():
    import torch
    job = json.loads(open(sys.argv[1]).read())
    libraries = {}

    def lib(path):
        if path not in libraries:
            libraries[path] = ctypes.CDLL(path)
        return libraries[path]

    for prog in job["programs"]:
        open(prog["out"] + ".started", "w").close()
        run_program(torch, lib, prog)
        print(f"ran {prog['name']}", flush=True)


if __name__ == "__main__":
    main()
