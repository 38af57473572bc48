# Found by tests/random (seed 11, programs 7 and 48), reduced by hand. A loop-carried value that
# starts as a constant and is dead after the loop is emitted as an assignment to that constant:
# `int32_t{0} = int32_t{0} * 3;` (nvcc: expression must be a modifiable lvalue).
# sig: x=float32[?], y=float32[?], n=int32
# expect: ok
import cuda.tile as ct


@ct.kernel
def dead_carried(x, y, n):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(16,))
    dead = ct.zeros((), dtype=ct.int32)
    for i in range(n):
        t = t + 1
        dead = dead * 3
    ct.store(y, index=(bid,), tile=t)
