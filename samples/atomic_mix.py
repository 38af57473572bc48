"""Every atomic read-modify-write on tiles, with their memory orders and scopes.

Lane k of the grid carries value x[k] and bin bins[k] (-1 or past the end: no bin). Each block
folds its lanes into the per-bin results with atomic_max / min / and / or / xor, then swaps x[k]
into slots[k] (atomic_xchg) and flips flags[k] from 0 to 1 (atomic_cas), saving the old values.
Lanes of one block touch distinct slots and flags, so those old values are deterministic.

Launch: grid = (ct.cdiv(len(x), TILE),); vmax = INT_MIN, vmin = INT_MAX, vand = -1, vor = vxor = 0.
"""
import cuda.tile as ct

ORDER = ct.MemoryOrder


@ct.kernel
def atomic_mix(x, bins, vmax, vmin, vand, vor, vxor, slots, old_slots, flags, old_flags,
               TILE: ct.Constant[int]):
    lanes = ct.bid(0) * TILE + ct.arange(TILE, dtype=ct.int32)
    v = ct.gather(x, lanes)
    b = ct.gather(bins, lanes, padding_value=-1)
    ct.atomic_max(vmax, b, v)
    ct.atomic_min(vmin, b, v, memory_order=ORDER.RELAXED)
    ct.atomic_and(vand, b, v)
    ct.atomic_or(vor, b, v, memory_scope=ct.MemoryScope.SYS)
    ct.atomic_xor(vxor, b, v, memory_order=ORDER.RELEASE)
    ct.scatter(old_slots, lanes, ct.atomic_xchg(slots, lanes, v))
    ct.scatter(old_flags, lanes, ct.atomic_cas(flags, lanes, 0, 1, memory_order=ORDER.ACQUIRE))
