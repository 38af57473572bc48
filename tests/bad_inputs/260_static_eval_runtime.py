# case: ct.static_eval runs at compile time; an array's run-time shape is not available there
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:9: TileStaticEvalError: ct.static_eval() is evaluated at compile time and cannot contain the tile operation 'array_dim'
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    n = ct.static_eval(a.shape[0] // TILE)
    t = ct.load(a, index=(bid,), shape=(TILE,))
    ct.store(b, index=(bid,), tile=t + n)
