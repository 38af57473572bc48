# Found by tests/random (seed 2026, program 166), reduced by hand. A runtime if whose branches
# stay (a side effect) but whose result is never read still declares and sets the result:
# `int32_t r; if (...) { ...; r = bid + 3; } else { r = bid * 7; }` (nvcc #550-D, an error
# under -Werror all-warnings).
# sig: x=float32[?], y=float32[?], flags=int32[?], s=int32
# expect: ok
import cuda.tile as ct


@ct.kernel
def dead_if_result(x, y, flags, s):
    bid = ct.bid(0)
    if s > 0:
        ct.atomic_add(flags, bid, 1)
        r = bid + 3
    else:
        r = bid * 7
    ct.store(y, index=(bid,), tile=ct.load(x, index=(bid,), shape=(16,)))
