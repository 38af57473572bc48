# Found by tests/random (seed 78, program 262), reduced by hand; real cuTile accepts it. A
# ct.where whose condition is a compile-time constant folds to the chosen operand without
# broadcasting it to the shape of the three operands: here the scalar 2 instead of a (4, 16)
# tile, so the argmax over axis 1 is refused ("Axis 1 is out of range for rank 0").
# sig: x=int8[?, ?], y=int32[?, ?]
# expect: ok
import cuda.tile as ct


@ct.kernel
def where_const(x, y):
    t = ct.load(x, index=(0, 0), shape=(4, 16))
    w = ct.where(2 > 4, t, 2)
    ct.store(y, index=(0, 0), tile=ct.argmax(w, axis=1, keepdims=True))
