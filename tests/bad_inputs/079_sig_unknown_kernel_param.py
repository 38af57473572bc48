# case: the signature names a parameter the kernel lacks
# sig: a=float32[?], b=float32[?], TILE=16, c=int32
# expect: 8:5: SignatureError: c
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
