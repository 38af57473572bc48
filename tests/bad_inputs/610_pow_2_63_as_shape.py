# case: TILE = 2**63 was reported as a negative dimension
# sig: a=float32[?], b=float32[?]
# expect: 11:40: TileValueError: integer constant 9223372036854775808 is out of range of int64
import cuda.tile as ct

TILE = 2**63


@ct.kernel
def k(a, b):
    x = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    ct.store(b, index=(ct.bid(0),), tile=x)
