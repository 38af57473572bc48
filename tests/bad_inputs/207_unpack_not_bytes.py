# case: unpack_from_bytes needs a uint8 tile (cuTile's text)
# sig: a=float32[?, ?], b=float16[?], TILE=16
# expect: 11:30: TileTypeError: unpack_from_bytes requires uint8 tile, got
import cuda.tile as ct


@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(a, index=(bid, 0), shape=(TILE, TILE))
    s = ct.unpack_from_bytes(t, ct.float16)
    ct.store(b, index=(bid,), tile=s)
