# Found by tests/random (seed 992165174, program 48), reduced by hand. A kernel whose tiles are one
# 16-byte run runs blocks of one thread, 256 to a CTA; the scan's cub temporaries were then sized
# kThreads / 2 = 0 (nvcc: zero-sized variable "temp" is not allowed in device code).
# sig: x=float32[?], y=float32[?]
# expect: ok
import cuda.tile as ct


@ct.kernel
def scan_in_one_thread_block(x, y):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(4,))
    ct.store(y, index=(bid,), tile=ct.cumsum(t, axis=0) + ct.scan(t, 0, lambda p, q: ct.maximum(p, q), float("-inf")))
