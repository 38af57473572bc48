# case: TILE=2**64 + 1024 in the signature compiled as a 1024-element tile; refused at its digits
# sig: a=float32[?], b=float32[?], TILE=18446744073709552640
# expect-origin: --sig #1
# expect: 1:34: SignatureError: integer out of range of int64
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    x = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    ct.store(b, index=(ct.bid(0),), tile=x)
