"""Compile-time dicts and function values through the launcher (no nvcc, no GPU): kernels
written as cuTile's test_dict.py writes them (helpers with **kwargs defined inside the test
function) and as test_atomic.py does (a module-level dict of ct atomics keyed by an enum,
read in ct.static_eval). The synthesized module carries the dicts over as source."""

from enum import Enum

import pytest

import tile2cu.cutile as ct
from test_synthesize import transpile


class AtomicOp(Enum):
    XCHG = 0
    ADD = 1
    MAX = 2


_op_to_func = {
    AtomicOp.XCHG: ct.atomic_xchg,
    AtomicOp.ADD: ct.atomic_add,
    AtomicOp.MAX: ct.atomic_max,
}


@ct.kernel
def atomic_kernel(x, y, z, TILE: ct.Constant[int], op_id: ct.Constant[int]):
    offset = ct.arange(TILE, dtype=ct.int64)
    val = ct.gather(y, offset)
    func = ct.static_eval(_op_to_func[AtomicOp(op_id)])
    old = func(x, offset, val, memory_order=ct.MemoryOrder.ACQ_REL, memory_scope=ct.MemoryScope.DEVICE)
    ct.scatter(z, offset, old)


@pytest.mark.parametrize("op", list(AtomicOp))
def test_module_dict_of_atomics_in_static_eval(cache_dir, tmp_path, fake_array, op):
    args = (fake_array((512,), "<i4"), fake_array((512,), "<i4"), fake_array((512,), "<i4"), 128, op.value)
    cu = transpile(atomic_kernel, args, tmp_path)
    assert {"XCHG": "atomic_xchg", "ADD": "atomic_add", "MAX": "atomic_max"}[op.name] in cu


def test_variadic_kwargs_and_dict_access(cache_dir, tmp_path):
    def helper(**kwargs):
        ct.static_assert(kwargs == {"foo": 123, "bar": 456})
        ct.static_assert(kwargs["foo"] == 123 and kwargs.get("bar") == 456 and kwargs.get("qux") is None)
        ct.static_assert("foo" in kwargs and "qux" not in kwargs)
        return 789

    def leaf(x, foo, bar):
        return x * 100 + foo * 10 + bar

    def forward(f, **kwargs):
        return f(3, **kwargs)

    # helper static_asserts, so it is called outside static_assert, as cuTile's test_dict.py does
    # (a static_assert inside another's condition is cuTile's StaticEvalError).
    @ct.kernel
    def kernel():
        res = helper(foo=123, bar=456)
        ct.static_assert(res == 789)
        ct.static_assert(forward(leaf, foo=4, bar=5) == 345)

    assert "tile2cu_spec_test" in transpile(kernel, (), tmp_path)


def test_dict_getitem_miss_is_cutiles_type_error(cache_dir, tmp_path):
    def helper(**kwargs):
        return kwargs["qux"]

    @ct.kernel
    def kernel():
        helper(foo=123, bar=456)

    with pytest.raises(ct.TileTypeError, match="Key 'qux' not found in dictionary"):
        transpile(kernel, (), tmp_path)
