"""ct.launch's warm path (_warm_launch): for every kind of argument it takes, a warm launch
passes the C entry what the generic binding passes, without binding generically; and it still
checks every call, raising what a cold launch raises. No GPU: the specializations are "built" by
a stand-in for _build.build whose entry records its arguments."""

from pathlib import Path
from typing import Annotated

import pytest

import kernels
from conftest import FakeDeviceArray
import tile2cu.cutile as ct
from tile2cu import _args, _build, _device, _kernel, _warm_launch


class FakeTorchDtype:
    def __init__(self, name):
        self.name = name

    def __str__(self):
        return f"torch.{self.name}"


class FakeTorchTensor:
    """What the launcher reads of a torch tensor (its type's module starts with "torch")."""

    __module__ = "torch.fake"
    dtypes = {name: FakeTorchDtype(name) for name in ("float32", "float16", "complex64")}

    def __init__(self, shape, dtype="float32", ptr=0x7F0000000000, strides=None, is_cuda=True):
        self.shape, self.dtype, self.is_cuda = tuple(shape), self.dtypes[dtype], is_cuda
        self.device = "cuda:0" if is_cuda else "cpu"
        self._ptr = ptr
        self._strides = strides or _args._contiguous_strides(self.shape)

    def stride(self):
        return self._strides

    def data_ptr(self):
        return self._ptr


@pytest.fixture
def recorded(monkeypatch, cache_dir):
    """Stand-in builds; the list of (signature, entry arguments) of every entry call."""
    monkeypatch.setattr(_device, "_devices", _device.Devices(("sm_90",), (2**31 - 1, 65535, 65535)))
    monkeypatch.setattr(_kernel, "_max_grid", (2**31 - 1, 65535, 65535))
    calls = []

    def build(source_path, kernel_name, spec_name, signature, archs, argtypes, synthesized=None):
        def entry(*c_args):
            calls.append((signature, c_args))
            return 0
        return _build.Built(entry, cache_dir, None)
    monkeypatch.setattr(_build, "build", build)
    monkeypatch.setattr(_kernel.kernel, "_source", lambda self: (Path(__file__), None))
    return calls


def fresh(k):
    return k.replace_hints()   # its own table of specializations




def launch_warm(monkeypatch, k, args, grid=(3,), stream=0):
    """Launches twice: cold, then warm with the generic binding unavailable. Returns `k`."""
    ct.launch(stream, grid, k, args)
    with monkeypatch.context() as m:
        m.setattr(_kernel, "_bind", None)
        ct.launch(stream, grid, k, args)
    assert k._warm_last is not _warm_launch.always_miss
    return k


def annotated(x: Annotated[ct.Array, ct.ArrayAnnotation(static_shape_dims=(1,))], n: ct.ScalarInt64):
    pass


TORCH = FakeTorchTensor


def cai(shape, typestr="<f4", ptr=0x7F0000000000, strides=None):
    return FakeDeviceArray(shape, typestr, ptr, strides)


CASES = {
    "torch": (kernels.copy, lambda: (TORCH((64,)), TORCH((64,), ptr=0x7F0000001000), 16)),
    "torch 2-d strided": (kernels.copy, lambda: (TORCH((4, 8), strides=(16, 2)),
                                                  TORCH((4, 8), ptr=0x7F0000000004), 16)),
    "CuPy-like": (kernels.axpy, lambda: (cai((64,)), cai((64,), ptr=0x7F0000000008), 0.5, 16)),
    "CuPy-like strided": (kernels.axpy, lambda: (cai((4, 8), strides=(64, 8)), cai((4, 8)),
                                                 2.0, 16)),
    "scalars and constants": (kernels.everything,
                              lambda: (TORCH((8,)), True, -7, 2**40, 1.5, (2, 3), True)),
    "float constant": (kernels.copy, lambda: (cai((8,)), cai((8,)), 0.25)),
    "annotated array": (ct.kernel(annotated), lambda: (cai((4, 6)), 5)),
    "0-d array": (kernels.copy, lambda: (cai(()), cai((8,)), 4)),
}


@pytest.mark.parametrize("case", CASES)
def test_warm_launch_passes_what_the_generic_binding_passes(monkeypatch, recorded, case):
    base, make = CASES[case]
    k, args = fresh(base), make()
    launch_warm(monkeypatch, k, args)
    assert len(recorded) == 2 and recorded[0] == recorded[1]
    flat = _kernel._bind(k, args, None)[1]
    assert recorded[1][1] == (0, 3, 1, 1, *flat)
    assert len(k._specs) == 1


def test_warm_launch_follows_changes_of_key(monkeypatch, recorded):
    """Same argument types, another key: another specialization, built through the generic
    path; then both are warm."""
    k = fresh(kernels.copy)
    x, y = TORCH((64,)), TORCH((64,))
    launch_warm(monkeypatch, k, (x, y, 16))
    for args in ((x, y, 32),                                          # another constant
                 (TORCH((64,), ptr=0x7F0000000004), y, 16),            # not 16-byte aligned
                 (TORCH((4, 16)), y, 16),                              # another rank
                 (TORCH((64,), "float16"), y, 16),                     # another dtype
                 (TORCH((64,), strides=(2,)), y, 16),                  # not contiguous
                 [x, y, 16]):                                          # a list of arguments
        ct.launch(0, (1,), k, args)
        assert recorded[-1][0] == k._specs[_kernel._bind(k, args, None)[0]].signature
    assert len(k._specs) == 6
    with monkeypatch.context() as m:   # all of them warm now
        m.setattr(_kernel, "_bind", None)
        ct.launch(0, (1,), k, (TORCH((4, 16)), y, 16))
        ct.launch(0, (1,), k, (x, y, 32))


def raised_by_generic_binding(k, args):
    with pytest.raises(Exception) as e:
        _kernel._bind(k, args, None)
    return getattr(e.value, "kind", type(e.value)), str(e.value)


@pytest.mark.parametrize("bad", [
    (TORCH((8,), is_cuda=False), TORCH((8,)), 1.0, 4),   # a CPU tensor
    (TORCH((8,)), TORCH((8,), "complex64"), 1.0, 4),     # a dtype tile2cu has no name for
    (TORCH((8,)), TORCH((8,), strides=(-1,)), 1.0, 4),   # a negative stride
    (TORCH((8,)), TORCH((8,)), "1.0", 4),                # a str for a float
    (TORCH((8,)), TORCH((8,)), 1.0, "4"),                # a str for a Constant
    (TORCH((8,)), TORCH((8,)), 1.0),                     # an argument missing
    (TORCH((8,)), cai((8,), strides=(6,)), 1.0, 4),      # a stride of 1.5 elements
])
def test_warm_kernel_raises_what_a_cold_launch_raises(monkeypatch, recorded, bad):
    k = launch_warm(monkeypatch, fresh(kernels.axpy), (TORCH((8,)), TORCH((8,)), 1.0, 4))
    kind, text = raised_by_generic_binding(k, bad)
    with pytest.raises(kind) as e:
        ct.launch(0, (1,), k, bad)
    assert str(e.value) == text and len(recorded) == 2


def test_warm_kernel_checks_scalars_and_grid(monkeypatch, recorded):
    k = launch_warm(monkeypatch, fresh(kernels.everything),
                    (TORCH((8,)), True, 1, 2, 1.5, (2, 3), 4))
    with pytest.raises(ValueError, match=r"#3 \(count\): 2147483648 does not fit in int32"):
        ct.launch(0, (1,), k, (TORCH((8,)), True, 2**31, 2, 1.5, (2, 3), 4))
    with pytest.raises(ValueError, match="exceeds 24-bit limit"):
        ct.launch(0, (2**24,), k, (TORCH((8,)), True, 1, 2, 1.5, (2, 3), 4))
    with pytest.raises(TypeError, match="Kernel expects 7 arguments but 6 were given"):
        ct.launch(0, (1,), k, (TORCH((8,)), True, 1, 2, 1.5, (2, 3)))
    assert len(recorded) == 2


def test_a_failing_entry_raises_on_the_warm_path(monkeypatch, recorded):
    k = launch_warm(monkeypatch, fresh(kernels.copy), (TORCH((8,)), TORCH((8,)), 4))
    spec = next(iter(k._specs.values()))
    monkeypatch.setattr(spec, "entry", lambda *a: 9)
    with pytest.raises(ValueError, match="cudaErrorInvalidConfiguration"):
        ct.launch(0, (1,), k, (TORCH((8,)), TORCH((8,)), 4))


def test_warm_launchers_per_kernel_are_bounded(monkeypatch, recorded):
    """New argument types past MAX_CALL_SHAPES take the generic path."""
    monkeypatch.setattr(_warm_launch, "MAX_CALL_SHAPES", 1)
    k = fresh(kernels.copy)
    launch_warm(monkeypatch, k, (TORCH((8,)), TORCH((8,)), 4))
    ct.launch(0, (1,), k, (cai((8,)), TORCH((8,)), 4))
    assert len(k._warm) == 1 and len(recorded) == 3
