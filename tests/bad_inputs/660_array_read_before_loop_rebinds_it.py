# case: an array name read in a loop before the loop rebinds it to another array (the body is lowered once: later iterations would read the first array)
# sig: x=float32[?], y=float32[?], out=float32[?]
# expect: 11:21: TileUnsupportedFeatureError: Variable alias is read here before the loop rebinds it: it names array x on entry to the loop and array y after an iteration
import cuda.tile as ct


@ct.kernel
def k(x, y, out):
    alias = x
    for i in range(2):
        t = ct.load(alias, (i,), (4,))
        ct.store(out, (i,), t)
        alias = y
