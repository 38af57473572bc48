# case: x[0] += 3 on an array reads x[0] first, as Python does: cuTile's read error (test_array_aug_setitem)
# sig: x=float32[?]
# expect: 9:5: TileTypeError: Arrays are not directly subscriptable
import cuda.tile as ct


@ct.kernel
def k(x):
    x[0] += 3
