# case: static_iter over a number: Python's "not iterable", as cuTile words it (test_static_iter_non_iterable)
# sig: x=int32[?]
# expect: 9:29: TileTypeError: Invalid static_iter() iterable: 'int' object is not iterable
import cuda.tile as ct


@ct.kernel
def k(x):
    for i in ct.static_iter(42):
        ct.scatter(x, i, 1)
