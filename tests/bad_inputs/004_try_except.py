# case: try/except is outside the cuTile subset
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:5: TileSyntaxError: try
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    try:
        t = ct.load(a, index=(bid,), shape=(TILE,))
    except Exception:
        t = ct.zeros((TILE,), dtype=ct.float32)
    ct.store(b, index=(bid,), tile=t)
