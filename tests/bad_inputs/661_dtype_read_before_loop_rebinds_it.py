# case: a dtype read in a while loop's condition and body before the body rebinds it
# sig: x=float32[?], out=float16[?]
# expect: 12:43: TileTypeError: Variable dt is not a tile or scalar and cannot change inside a loop (dtype float32 on entry, dtype float16 after an iteration
import cuda.tile as ct


@ct.kernel
def k(x, out):
    dt = ct.float32
    i = 0
    while i < 2:
        t = ct.load(x, (i,), (4,)).astype(dt)
        ct.store(out, (i,), t.astype(ct.float16))
        dt = ct.float16
        i += 1
