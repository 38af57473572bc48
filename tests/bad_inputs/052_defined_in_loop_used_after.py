# case: a name first assigned in a loop body, read after the loop
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 12:36: TileTypeError: last
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    for i in range(4):
        last = ct.load(a, index=(bid * 4 + i,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=last)
