# case: assignment expression (walrus)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:9: TileSyntaxError: walrus
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    if (n := ct.num_blocks(0)) > 1:
        bid = bid % n
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
