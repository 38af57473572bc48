# case: 1 ** 10**25 looped 10**25 times (a hang); it is 1 at once now, and the shift after it
# (2**100 << 100, undefined behaviour in 128 bits before) is refused
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:11: TileValueError: integer constant too large
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    one = 1 ** 10**25 + (-1) ** (10**25 + 1) + 1
    big = (one << 100) << 100
    x = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    ct.store(b, index=(ct.bid(0),), tile=x + big)
