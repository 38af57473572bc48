# Found by tests/random (seed 992165174, programs 3 and 80), reduced by hand. A loop-carried
# value whose initial value is a constant of the same Python name (`acc = ct.zeros((), ...)`)
# reuses the constant's variable, but the constant was written inline, so the loop assigned to
# a literal (`0.0f = 0.0f + ...`) or named a variable never declared.
# sig: y2=float32[?], y3=int32[?], s=int32
# expect: ok
import cuda.tile as ct


@ct.kernel
def carried_constant_initial_value(y2, y3, s):
    bid = ct.bid(0)
    acc = ct.zeros((), dtype=ct.float32)
    w = bid
    while w < 2:
        acc = acc + w.astype(ct.float32)
        w += ct.num_blocks(0)
    total = ct.zeros((), dtype=ct.int32)
    for k in range(0, s, 3):
        if k >= 7:
            break
        total = total + k
    ct.store(y2, index=(0,), tile=acc)
    ct.store(y3, index=(0,), tile=total)
