# case: acc = 0 then acc = acc + tile inside a loop
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:5: TileTypeError: Type of `acc` depends on path taken
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    acc = 0
    for i in range(4):
        t = ct.load(a, index=(bid * 4 + i,), shape=(TILE,))
        acc = acc + t
    ct.store(b, index=(bid,), tile=acc)
