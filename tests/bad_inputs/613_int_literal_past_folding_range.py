# case: an integer literal of 2**100 + 1 is past the range tile2cu folds integers in
# sig: a=float32[?], b=float32[?], TILE=16
# expect: 10:46: TileValueError: integer constant too large
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    x = ct.load(a, index=(ct.bid(0),), shape=(TILE,))
    ct.store(b, index=(ct.bid(0),), tile=x + 1267650600228229401496703205377)
