"""Helpers wrapped by decorators of the user's, as cuTile's test_helper_function.py writes them
(test_decorated_helper_function, test_decorated_helper_function_forward): the kernel calls the
wrapper the decorator returned, whose closure holds the original. Transpiled through the
launcher (no nvcc, no GPU); the scattered constant shows which function ran."""

import functools

import tile2cu.cutile as ct
from test_synthesize import transpile


def add_three(func):
    @functools.wraps(func)
    def wrapper(x):
        return func(x + 3)
    return wrapper


@add_three
def times_ten(x):
    return x * 10


def forward(func):
    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        return func(*args, **kwargs)
    return wrapper


@forward
def forwarded(x):
    return x * 10


def scattered(cu):
    return [line.strip() for line in cu.splitlines() if "scatter(" in line and "//" not in line]


def test_a_decorated_helper_is_its_wrapper(cache_dir, tmp_path, fake_array):
    @ct.kernel
    def kernel(y):
        ct.scatter(y, (), times_ten(5))

    assert scattered(transpile(kernel, (fake_array((), "<i4"),), tmp_path)) == [
        "in_one_thread([&] { scatter(y, indices(), 80); });"]


def test_a_forwarding_wrapper_passes_the_arguments_on(cache_dir, tmp_path, fake_array):
    @ct.kernel
    def kernel(y):
        ct.scatter(y, (), forwarded(5))

    assert scattered(transpile(kernel, (fake_array((), "<i4"),), tmp_path)) == [
        "in_one_thread([&] { scatter(y, indices(), 50); });"]
