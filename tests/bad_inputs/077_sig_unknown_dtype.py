# case: an unknown dtype in --sig
# sig: a=float33[?], b=float32[?], TILE=16
# expect-origin: --sig #1
# expect: 1:3: SignatureError: unknown dtype 'float33'
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
