# case: a scalar item of a tuple carried through a loop becomes a tile
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 12:5: TileTypeError: Variable state has changed its type inside a loop: Tuple[float32 scalar, float32 scalar] vs Tuple[float32 scalar, Tile[float32,(16,)]]
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    state = (ct.max(t), ct.sum(t))
    for j in range(4):
        m, l = state
        state = (m, t + l)
    ct.store(b, index=(bid,), tile=t * state[0])
