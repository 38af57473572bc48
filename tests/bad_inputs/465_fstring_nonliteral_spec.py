# case: f-string format spec with a replacement field in it (must be literal)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:18: TileSyntaxError: f-string: format spec must be a literal string
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    print(f"tile {t:{TILE}}")
    ct.store(b, index=(bid,), tile=t)
