# case: dict display read with a key it lacks (cuTile's KeyError text)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:56: TileTypeError: Key 'shift' not found in dictionary
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    opts = {"scale": 2.0}
    t = ct.load(a, index=(bid,), shape=(TILE,)) + opts["shift"]
    ct.store(b, index=(bid,), tile=t)
