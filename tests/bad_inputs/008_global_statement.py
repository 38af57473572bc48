# case: global statement
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 13:5: TileSyntaxError: global
COUNT = 0


import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    global COUNT
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t)
