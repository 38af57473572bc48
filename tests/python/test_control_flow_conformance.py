"""Control flow as cuTile's test suite writes it (test_control_flow.py, test_tuple.py,
test_contextlib_contextmanager.py): kernels transpiled through the launcher (no nvcc, no GPU),
checking that they are accepted, the generated code where it shows the answer, and cuTile's
errors."""

from contextlib import contextmanager

import pytest

import tile2cu.cutile as ct
from tile2cu import _errors
from test_synthesize import transpile


def append(x, val):
    i = ct.gather(x, 0) + 1
    ct.scatter(x, 0, i)
    ct.scatter(x, i, val)


@contextmanager
def dead_yield_after_break(x):
    append(x, 1)
    yield
    while True:
        append(x, 3)
        break
        yield  # dead: not a second yield


@contextmanager
def dead_yield_after_continue(x):
    append(x, 1)
    yield
    i = 0
    while i < 2:
        append(x, 10 + i)
        i += 1
        continue
        yield


@contextmanager
def only_dead_yield(x):
    append(x, 1)
    while True:
        append(x, 2)
        break
        yield


def test_a_constant_every_break_leaves_is_a_constant(cache_dir, tmp_path, fake_array):
    @ct.kernel
    def same(x):
        a = 0
        while True:
            if ct.bid(0) == 0:
                a = 1
                break
            a = 1
            break
        ct.store(x, (0,), ct.full((a,), 3.0, x.dtype))

    @ct.kernel
    def break_const_value(x):
        a = 0
        while True:
            if ct.bid(0) == 0:
                a = 1
                break
            a += 1
        ct.store(x, (0,), ct.full((a,), 1.0, ct.int32))

    assert "full<" in transpile(same, (fake_array((1,), "<f4"),), tmp_path)
    assert "full<" in transpile(break_const_value, (fake_array((1,), "<i4"),), tmp_path)


def test_a_starred_tuple_in_a_tuple_display(cache_dir, tmp_path, fake_array):
    @ct.kernel
    def kernel(x):
        a = (10, 20, 30)
        b = ()
        c = (40, 50)
        t = (7, *a, 8, *b, 9, *c, 10)
        ct.static_assert(t == (7, 10, 20, 30, 8, 9, 40, 50, 10))
        ct.scatter(x, 0, len(t))

    assert "tile2cu_spec_test" in transpile(kernel, (fake_array((9,), "<i4"),), tmp_path)


def test_in_stops_at_the_first_match(cache_dir, tmp_path, fake_array):
    @ct.kernel
    def kernel(x):
        t = ct.ones((4,), dtype=ct.int32)
        ct.static_assert(2 in (2, t))
        ct.static_assert(2 in (1, 2, t))
        ct.static_assert(not (2 not in (2, t)))
        ct.scatter(x, 0, 1)

    assert "tile2cu_spec_test" in transpile(kernel, (fake_array((3,), "<i4"),), tmp_path)

    @ct.kernel
    def reaches_the_tile(x):
        t = ct.ones((4,), dtype=ct.int32)
        if 3 in (2, t):
            ct.scatter(x, 0, 1)

    with pytest.raises(_errors.TileTypeError, match="'in' requires scalar operands"):
        transpile(reaches_the_tile, (fake_array((3,), "<i4"),), tmp_path)


@pytest.mark.parametrize("manager", [dead_yield_after_break, dead_yield_after_continue])
def test_a_yield_after_a_jump_is_dead(cache_dir, tmp_path, fake_array, manager):
    @ct.kernel
    def kern(x):
        with manager(x):
            append(x, 9)

    assert "tile2cu_spec_test" in transpile(kern, (fake_array((8,), "<i4"),), tmp_path)


def test_only_a_dead_yield_is_no_yield(cache_dir, tmp_path, fake_array):
    @ct.kernel
    def kern(x):
        with only_dead_yield(x):
            append(x, 9)

    with pytest.raises(_errors.TileTypeError, match="no reachable `yield` statement"):
        transpile(kern, (fake_array((8,), "<i4"),), tmp_path)


def test_a_name_first_bound_at_every_break_of_while_true(cache_dir, tmp_path, fake_array):
    # cuTile's test_yield_previously_undefined_tuple_from_loop: tx2 exists after the loop, as
    # the loop is left only by the break that binds it.
    @ct.kernel
    def kernel(x):
        i = 0
        while True:
            if i > 0:
                tx = ct.gather(x, ()) + i
                tx2 = (tx, tx)
                break
            i += 10
        ct.scatter(x, (), tx2[0])

    assert "tile2cu_spec_test" in transpile(kernel, (fake_array((), "<i4"),), tmp_path)

    @ct.kernel
    def may_leave_by_its_condition(x):
        i = 0
        while i < 3:
            if i > 0:
                tx = ct.gather(x, ()) + i
                break
            i += 10
        ct.scatter(x, (), tx)

    with pytest.raises(_errors.TileError, match="Undefined variable tx used"):
        transpile(may_leave_by_its_condition, (fake_array((), "<i4"),), tmp_path)
