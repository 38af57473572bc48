# case: a list display as an item of static_iter's iterable is no constant (cuTile's test_static_iter_unsupported_item)
# sig: x=int32[?]
# expect: 9:30: TileStaticEvalError: Invalid item #0 of static_iter() iterable: Cannot create constant from value of type list.
import cuda.tile as ct


@ct.kernel
def k(x):
    for i in ct.static_iter(([1, 2], [3, 4])):
        ct.scatter(x, 0, i)
