# case: a global tuple doubled until it is larger than tile2cu supports; named once, at its use
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 25:17: TileUnsupportedFeatureError: global 'SIZES' is not a compile-time constant: a tuple of more than 4096 values
import cuda.tile as ct

SIZES = (1, 2)
SIZES = SIZES + SIZES
SIZES = SIZES + SIZES
SIZES = SIZES + SIZES
SIZES = SIZES + SIZES
SIZES = SIZES + SIZES
SIZES = SIZES + SIZES
SIZES = SIZES + SIZES
SIZES = SIZES + SIZES
SIZES = SIZES + SIZES
SIZES = SIZES + SIZES
SIZES = SIZES + SIZES
SIZES = SIZES + SIZES


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    t = t + len(SIZES)
    ct.store(b, index=(bid,), tile=t)
