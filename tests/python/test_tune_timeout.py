"""`exhaustive_search(..., single_run_timeout_sec=...)`: a launch run in a separate process that
is killed past the limit (cuTile's tune_utils.benchmark_with_timeout). On the CPU: the payload
(array pointers as CUDA IPC handle and offset, with a stand-in driver), the worker's process
handling with stand-in workers (a result, a hang, a failure) and the fallback where the
arguments cannot be shared. The worker's CUDA side needs a GPU (tests/gpu)."""

import sys

import pytest

import kernels
import tile2cu.cutile as ct
from conftest import FakeDeviceArray
from test_launch_checks import entry  # noqa: F401 - the fixture
from tile2cu.tune import _ipc, _tune_utils


class FakeDriver:
    """Allocations of 1 MiB from 0x10000000 on; `unshareable` bases have no IPC handle."""

    def __init__(self, unshareable=()):
        self.unshareable, self.synchronized = set(unshareable), []

    def allocation_base(self, ptr):
        return ptr & ~0xFFFFF

    def ipc_handle(self, base):
        return None if base in self.unshareable else base.to_bytes(64, "little")

    def device(self):
        return 0

    def synchronize(self, handle):
        self.synchronized.append(handle)


def test_payload_names_each_pointer_by_its_allocation(entry):  # noqa: F811
    x = FakeDeviceArray((16,), "<f4", ptr=0x10000040)
    out = FakeDeviceArray((16,), "<f4", ptr=0x10100000)
    driver = FakeDriver()
    payload = _ipc.export_payload(7, (2,), kernels.copy, (x, out, 16), driver)
    assert payload["grid"] == [2, 1, 1] and payload["device"] == 0
    assert payload["lib"].endswith("lib.so")
    first, _, _, second, _, _ = payload["args"]
    assert first == {"t": "ptr", "ipc": (0x10000000).to_bytes(64, "little").hex(), "off": 0x40}
    assert second["off"] == 0 and second["ipc"] != first["ipc"]
    assert payload["args"][1] == {"t": "s", "c": "int64", "v": 16}   # x's shape
    assert driver.synchronized == [7]   # the stream's work on the arrays is done first
    assert not entry.calls              # built, not launched here


def test_list_tables_carry_handles_for_their_pointers(entry):  # noqa: F811
    @ct.kernel
    def k(xs, out):
        ct.store(out, (0,), ct.load(xs[0], (0,), (8,)))

    items = [FakeDeviceArray((8,), ptr=0x10000000), FakeDeviceArray((8,), ptr=0x10200010)]
    payload = _ipc.export_payload(0, (1,), k, (items, FakeDeviceArray((8,))), FakeDriver())
    table, count = payload["args"][0], payload["args"][1]
    assert table["t"] == "words" and count == {"t": "s", "c": "int32", "v": 2}
    assert [w["off"] for w in table["v"] if isinstance(w, dict)] == [0, 0x10]
    assert table["v"][1:3] == [8, 1]   # the first item's shape and stride stay numbers


def test_unshareable_memory_falls_back_to_a_launch_here(entry, monkeypatch):  # noqa: F811
    x = FakeDeviceArray((16,), ptr=0x10000000)
    assert _ipc.export_payload(0, (1,), kernels.copy, (x, x, 16),
                               FakeDriver(unshareable={0x10000000})) is None
    # cuTile's test_ipc_export_none_falls_back, as it is written
    monkeypatch.setattr(_tune_utils, "_export_ipc_benchmark_payload", lambda *args: None)
    monkeypatch.setattr(_tune_utils, "_benchmark", lambda *args: 123)
    assert _tune_utils.benchmark_with_timeout(None, (1,), None, (), 5.0) == (123, None)


def _worker(script, tmp_path):
    path = tmp_path / "worker.py"
    path.write_text(script)
    return [sys.executable, str(path)]


def test_the_worker_answers_the_time(tmp_path):
    worker = _worker("import json, sys\np = json.load(sys.stdin)\n"
                     "print(json.dumps({'us': 2.5 * p['grid'][0]}))\n", tmp_path)
    us, wall_seconds = _ipc.run({"grid": [2, 1, 1]}, 30.0, worker)
    assert us == 5.0 and 0 < wall_seconds < 30.0


def test_a_worker_past_the_limit_is_killed(tmp_path, monkeypatch):
    worker = _worker("import time\ntime.sleep(60)\n", tmp_path)
    with pytest.raises(_ipc.LaunchTimeout):
        _ipc.run({}, 0.5, worker)
    monkeypatch.setattr(_tune_utils, "_export_ipc_benchmark_payload", lambda *args: {})
    monkeypatch.setattr(_ipc, "WORKER", tmp_path / "worker.py")
    monkeypatch.setattr(_ipc.sys, "executable", sys.executable)
    with pytest.raises(_tune_utils.TileLaunchTimeoutError,
                       match="CUDA kernel launch exceeded timeout"):
        _tune_utils.benchmark_with_timeout(None, (1,), None, (), 0.5)


def test_a_failing_worker_says_why(tmp_path):
    worker = _worker("import json\nprint(json.dumps({'error': 'RuntimeError: no GPU'}))\n"
                     "raise SystemExit(1)\n", tmp_path)
    with pytest.raises(RuntimeError, match="exit status 1.*no GPU"):
        _ipc.run({}, 30.0, worker)


def test_the_worker_script_imports_nothing_of_tile2cu():
    """...at its start, nor for an nvcc build; an NVRTC build's launch is the package's code,
    imported by _nvrtc_entry only."""
    import ast
    tree = ast.parse(_ipc.WORKER.read_text())

    def imports(nodes):
        names = {a.name for n in nodes if isinstance(n, ast.Import) for a in n.names}
        return names | {n.module for n in nodes if isinstance(n, ast.ImportFrom)}

    assert imports(tree.body) == {"ctypes", "json", "sys"}
    functions = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    lazy = {name for name, f in functions.items() if imports(list(ast.walk(f)))}
    assert lazy == {"_nvrtc_entry"}
    assert imports(list(ast.walk(functions["_nvrtc_entry"]))) == {"pathlib", "tile2cu"}


def test_the_real_worker_reports_a_missing_driver(tmp_path):
    import ctypes
    try:
        ctypes.CDLL("libcuda.so.1")
        pytest.skip("a CUDA driver is installed: the worker would try a real launch")
    except OSError:
        pass
    with pytest.raises(RuntimeError, match="exit status 1.*libcuda"):
        _ipc.run({"device": 0, "args": []}, 30.0)


def test_the_worker_maps_handles_with_zero_bytes_whole():
    import ctypes
    import importlib.util
    spec = importlib.util.spec_from_file_location("ipc_worker", _ipc.WORKER)
    worker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(worker)
    raw = bytes(range(64))   # begins with a 0 byte, as IPC handles may

    class FakeCuda:
        opened = []

        def cuIpcOpenMemHandle_v2(self, dptr, handle, flags):
            self.opened.append(bytes(handle))
            ctypes.cast(dptr, ctypes.POINTER(ctypes.c_uint64))[0] = 0x20000000
            return 0

    cuda = FakeCuda()
    mapper = worker._Mapper(cuda)
    ref = {"ipc": raw.hex(), "off": 0x40}
    types, values = worker._arguments(
        {"args": [{"t": "ptr", **ref}, {"t": "s", "c": "int32", "v": 3},
                  {"t": "words", "v": [{"ipc": raw.hex(), "off": 8}, 16, 1]}]}, mapper)
    assert cuda.opened == [raw]   # opened once, every byte kept
    assert values[0] == 0x20000040 and values[1] == 3 and list(values[2]) == [0x20000008, 16, 1]
    assert types[:2] == [ctypes.c_void_p, ctypes.c_int32]
