# case: a helper's **kwargs read with a key the call did not pass: cuTile's missing-key error
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 8:24: TileTypeError: Key 'scale' not found in dictionary
import cuda.tile as ct


def scaled(t, **options):
    return t * options["scale"]


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    t = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    ct.store(b, index=(ct.bid(0),), tile=scaled(t, bias=1.0))
