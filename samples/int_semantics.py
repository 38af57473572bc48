"""Integer semantics that differ between Python and C, on 1-D integer arrays.

    quot    a // d          floor division (rounds toward -inf), d = b with zeros replaced by 1
    rem     a % d           Python modulo: the result takes the sign of the divisor
    lit     (a // -4) * 8 + a % 5 - a % -3        literal divisors of both signs
    bits    ((a << 3) ^ (b >> 1)) & 0xFFFF | (~a >> 2)  plus shifts by per-lane amounts
    small   int8 arithmetic: (s + 100) * int8(3) ^ -7, wrapping modulo 2^8
    flags   bool -> int32 casts and ct.where packed into bit fields
    minmax  max(a, b) - min(-a, b) + abs(a) + ct.minimum(a, 1000) - ct.maximum(b, -1000)

a, b and every output except `small` (int8) and `flags` (int32) share one integer dtype.

Launch: grid = (ct.cdiv(n, TILE),)
"""
import cuda.tile as ct

ConstInt = ct.Constant[int]
ZERO = ct.PaddingMode.ZERO
LOW16 = 0xFFFF


@ct.kernel
def int_semantics(a, b, s, quot, rem, lit, bits, small, flags, minmax, TILE: ConstInt):
    block = ct.bid(0)
    ta = ct.load(a, index=(block,), shape=(TILE,), padding_mode=ZERO)
    tb = ct.load(b, index=(block,), shape=(TILE,), padding_mode=ZERO)
    ts = ct.load(s, index=(block,), shape=(TILE,), padding_mode=ZERO)

    # Zero divisors (including the padded lanes of the last tile) become 1.
    d = ct.where(tb == 0, 1, tb)
    ct.store(quot, index=(block,), tile=ta // d)
    ct.store(rem, index=(block,), tile=ta % d)

    ct.store(lit, index=(block,), tile=(ta // -4) * 8 + ta % 5 - ta % -3)

    mixed = ((ta << 3) ^ (tb >> 1)) & LOW16 | (~ta >> 2)
    shifted = (ta >> (tb & 7)) + ((ta & 0xFF) << (tb & 3))
    ct.store(bits, index=(block,), tile=mixed + shifted)

    wrapped = (ts + 100) * ct.int8(3) ^ -7
    ct.store(small, index=(block,), tile=wrapped)

    lt = (ta < tb).astype(ct.int32)
    even = (ta % 2 == 0).astype(ct.int32) << 1
    quadrant = ct.where((ta >= 0) & (tb < 0), 4, 0)
    differs = (ta != tb).astype(ct.int32) * 8
    ct.store(flags, index=(block,), tile=lt | even | quadrant | differs)

    spread = max(ta, tb) - min(-ta, tb) + ct.abs(ta)
    clamped = ct.minimum(ta, 1000) - ct.maximum(tb, -1000)
    ct.store(minmax, index=(block,), tile=spread + clamped)
