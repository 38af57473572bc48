# Found while adding ct.atan2 to the generator (issue 26), reduced by hand. atan2 of a float16 tile
# and an int32 tile is float16 in cuTile (the operands promote as arithmetic does, b.5), but
# tile2cu turned each operand into a float first (int32 -> float32) and answered float32, so the
# store into a float16 array failed with "cannot implicitly cast float32 to float16". The
# `# extents:` header lets run_gpu_oracle.py replay it on the GPU against the reference.
# sig: x=float16[?], n=int32[?], y=float16[?]
# extents: x=g16 n=g16 y=g16
# expect: ok
import cuda.tile as ct


@ct.kernel
def atan2_float16_with_int32(x, n, y):
    bid = ct.bid(0)
    g = bid * 16 + ct.arange(16, dtype=ct.int32)
    ct.scatter(y, g, ct.atan2(ct.gather(x, g), ct.gather(n, g)))
