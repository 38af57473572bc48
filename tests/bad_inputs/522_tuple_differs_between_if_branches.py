# case: a tuple has a different length on each path of a run-time if, and is used after it
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 14:36: TileTypeError: Type of `pair` depends on path taken: Tuple[Tile[float32,(16,)], float constant 1, float constant 2] vs Tuple[Tile[float32,(16,)], float constant 1]
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    pair = (t, 1.0)
    if bid > 0:
        pair = (t * 2.0, 1.0, 2.0)
    ct.store(b, index=(bid,), tile=pair[0])
