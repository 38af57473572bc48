# case: a run-time if in a scan's combiner is refused before its branches are lowered (cuTile's test_custom_scan_ifelse_not_supported: b.type() is never looked at)
# sig: x=int32[?, ?], y=int32[?, ?]
# expect: 10:9: TileSyntaxError: Branching inside scan body is not supported
import cuda.tile as ct


@ct.kernel
def k(x, y):
    def f(a, b):
        if ct.bid(0) == 0:
            return a + b.type()
        else:
            return (a + b) % 5

    xt = ct.load(x, (0, 0), (16, 16))
    yt = ct.scan(xt, axis=1, func=f, identity=0)
    ct.store(y, (0, 0), yt)
