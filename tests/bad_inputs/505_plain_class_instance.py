# case: an instance of a plain (non-dataclass) class built in a kernel
# sig: a=float32[?], TILE=16
# expect: 14:11: UnsupportedCallError: Creating instances of type "Params" is not supported in device code
import cuda.tile as ct


class Params:
    def __init__(self, scale):
        self.scale = scale


@ct.kernel
def k(a, TILE: ct.Constant[int]):
    prm = Params(2.0)
    t = ct.load(a, index=(0,), shape=(TILE,))
    ct.store(a, index=(0,), tile=t * prm.scale)
