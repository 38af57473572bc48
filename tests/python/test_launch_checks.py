"""What ct.launch checks before and after the C entry, with cuTile's exception classes and
messages: ArrayAnnotation fields, static axes out of range or listed twice, shapes and strides
beyond int32, the empty grid, lists of arrays in a CUDA graph capture. No GPU: builds are a
stand-in whose entry records its call and answers what the generated launcher would."""

from pathlib import Path
from typing import Annotated

import pytest

import kernels
from conftest import FakeDeviceArray
import tile2cu.cutile as ct
from tile2cu import _build, _device, _kernel


def fresh(k):
    """A kernel of its own, so that no other test's loaded specializations answer for it."""
    return ct.kernel(k._pyfunc)


@pytest.fixture
def entry(monkeypatch, cache_dir):
    """Stand-in builds; `entry.rc` is what the C entry answers, `entry.calls` its calls."""
    monkeypatch.setattr(_device, "_devices", _device.Devices(("sm_90",), (2**31 - 1, 65535, 65535)))
    monkeypatch.setattr(_kernel, "_max_grid", (2**31 - 1, 65535, 65535))

    class Entry:
        rc = 0
        calls = []

    def build(source_path, kernel_name, spec_name, signature, archs, argtypes, synthesized=None):
        def call(*c_args):
            Entry.calls.append(c_args)
            return Entry.rc
        return _build.Built(call, cache_dir, None)
    monkeypatch.setattr(_build, "build", build)
    monkeypatch.setattr(_kernel.kernel, "_source", lambda self: (Path(__file__), None))
    return Entry


@pytest.mark.parametrize("field", ["static_shape_dims", "static_stride_dims"])
def test_annotation_axes_must_be_ints(field):
    with pytest.raises(TypeError, match=f"Element #0 of `{field}` must be int, got False"):
        ct.ArrayAnnotation(**{field: (False,)})
    with pytest.raises(TypeError, match=f"`{field}` must be a tuple of integers"):
        ct.ArrayAnnotation(**{field: [0]})
    with pytest.raises(ValueError, match="`index_dtype` must be int32 or int64"):
        ct.ArrayAnnotation(index_dtype=ct.float32)


def _annotated(**annotation):
    def bad(x: Annotated[ct.Array, ct.ArrayAnnotation(**annotation)], out):
        pass
    return ct.kernel(bad)


@pytest.mark.parametrize("field", ["static_shape_dims", "static_stride_dims"])
def test_static_axis_out_of_range_or_twice(entry, field):
    x = out = FakeDeviceArray((4, 8))
    with pytest.raises(ValueError, match=f"{field} contains axis 5 but array rank is 2"):
        ct.launch(0, (1,), _annotated(**{field: (5,)}), (x, out))
    with pytest.raises(ValueError, match=f"{field} contains duplicate axis -2"):
        ct.launch(0, (1,), _annotated(**{field: (0, -2)}), (x, out))
    assert not entry.calls


def test_static_strides_go_into_the_signature_and_key(entry, monkeypatch):
    # cuTile's test_array.py::test_static_stride_*: the annotated axes' strides (in elements)
    # at launch become `strides(...)` of the signature; once one is listed, a unit last stride
    # is no longer inferred (`contiguous`), so arrays differing only there share a kernel.
    signatures = []
    build = _build.build

    def recording_build(source_path, kernel_name, spec_name, signature, *rest, **kw):
        signatures.append(signature)
        return build(source_path, kernel_name, spec_name, signature, *rest, **kw)
    monkeypatch.setattr(_build, "build", recording_build)
    k = _annotated(static_stride_dims=(0,))
    out = FakeDeviceArray((4, 8))
    ct.launch(0, (1,), k, (FakeDeviceArray((4, 8), strides=(40, 4)), out))
    assert "x=float32[?, ?] strides(10, ?) align16" in signatures[-1]
    ct.launch(0, (1,), k, (FakeDeviceArray((4, 8), strides=(40, 8)), out))   # inner stride 2
    assert len(signatures) == 1
    ct.launch(0, (1,), k, (FakeDeviceArray((4, 8), strides=(48, 4)), out))
    assert "strides(12, ?)" in signatures[-1] and len(signatures) == 2
    both = _annotated(static_shape_dims=(1,), static_stride_dims=(-1, 0))
    ct.launch(0, (1,), both, (FakeDeviceArray((4, 8), strides=(4, 0)), out))   # broadcast axis
    assert "x=float32[?, 8] strides(1, 0) align16" in signatures[-1]
    assert len(entry.calls) == 4


def test_strides_beyond_int32_are_overflow_errors(entry):
    entry.rc = 1   # cudaErrorInvalidValue: what the generated launcher answers for them
    big = FakeDeviceArray((1, 25165824, 1, 128), typestr="<f2",
                          strides=(2 * 2**32, 0, 0, 2))
    with pytest.raises(OverflowError, match=r"#1 \(x\): strides \(4294967296, 0, 0, 1\) does "
                                            "not fit in int32"):
        ct.launch(0, (1,), fresh(kernels.copy), (big, FakeDeviceArray((8,), "<f2"), 4))
    small = FakeDeviceArray((8,), "<f2")
    with pytest.raises(ValueError, match="launcher refused the launch"):
        ct.launch(0, (1,), fresh(kernels.copy), (small, small, 4))


@pytest.mark.parametrize("grid", [(), (1,), (1, 1), (1, 1, 1)])
def test_grids_of_up_to_three_dims(entry, grid):
    x = FakeDeviceArray((128,))
    ct.launch(0, grid, fresh(kernels.copy), (x, x, 128))
    assert entry.calls[-1][1:4] == (1, 1, 1)


def test_four_dim_grid_is_refused(entry):
    x = FakeDeviceArray((128,))
    with pytest.raises(ValueError, match="at most 3 dimensions, got 4"):
        ct.launch(0, (1, 1, 1, 1), fresh(kernels.copy), (x, x, 128))


def test_lists_of_arrays_in_a_graph_capture_are_refused(entry, monkeypatch):
    xs, ys = [FakeDeviceArray((64,))], [FakeDeviceArray((64,))]
    grouped_scale = fresh(kernels.grouped_scale)
    ct.launch(0, (1,), grouped_scale, (xs, ys, 2.0, 64))
    monkeypatch.setattr(_device, "stream_is_capturing", lambda handle: handle == 7)
    ct.launch(0, (1,), grouped_scale, (xs, ys, 2.0, 64))   # another stream
    with pytest.raises(RuntimeError, match="List argument in CUDAGraph isn't supported yet"):
        ct.launch(7, (1,), grouped_scale, (xs, ys, 2.0, 64))
    assert len(entry.calls) == 2
    x = FakeDeviceArray((64,))
    ct.launch(7, (1,), fresh(kernels.copy), (x, x, 64))   # no list: captured as any launch


def test_static_strides_transpile_to_constants(cache_dir, tmp_path, fake_array):
    # The transpiler side (real binary): x.strides[k] of an annotated axis is a compile-time
    # constant (static_eval, static_assert) and the kernel addresses with it.
    from test_synthesize import transpile

    def copy_static_strided(x: Annotated[ct.Array, ct.ArrayAnnotation(static_stride_dims=(0,))],
                            out):
        row_stride = ct.static_eval(x.strides[0])
        ct.static_assert(row_stride == 10)
        ct.store(out, (0, 0), ct.load(x, (0, 0), (4, 8)))
    k = ct.kernel(copy_static_strided)
    cu = transpile(k, (fake_array((4, 8), "<f2", strides=(20, 2)), fake_array((4, 8), "<f2")),
                   tmp_path)
    assert "x{x_data, {x_shape_0, x_shape_1}, {10, x_stride_1}}" in cu
    assert "if (x.strides[0] != 10) return cudaErrorInvalidValue;" in cu
    with pytest.raises(ct.TileStaticAssertionError):
        transpile(k, (fake_array((4, 8), "<f2", strides=(24, 2)), fake_array((4, 8), "<f2")),
                  tmp_path)
