# case: ct.atomic_add on an int8 array (atomics need 32- or 64-bit elements, or f16/bf16 for add)
# sig: a=float32[?], b=int8[?], TILE=16
# expect: 11:25: TileTypeError: Unsupported array dtype: int8 (atomic_add() supports
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    old = ct.atomic_add(b, bid, 1)
    ct.store(a, index=(bid,), tile=t)
