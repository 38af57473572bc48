# case: builtin print with a keyword other than sep/end (there is no file to print to)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 11:14: TileTypeError: print() takes only the keywords sep and end
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    print(t, file=None)
    ct.store(b, index=(bid,), tile=t)
