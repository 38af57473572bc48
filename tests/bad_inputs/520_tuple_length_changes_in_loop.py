# case: a tuple carried through a loop grows by an item (its type changes inside the loop)
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 12:5: TileTypeError: Variable state has changed its type inside a loop: Tuple[float32 scalar, float32 scalar] vs Tuple[float32 scalar, float32 scalar, float constant 0]
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    state = (ct.max(t), 0.0)
    for j in range(4):
        state = (state[0], state[1] + 1.0, 0.0)
    ct.store(b, index=(bid,), tile=t * state[0])
