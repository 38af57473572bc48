# case: an array as static_assert's message is its compile-time proxy, str()-ed (cuTile's test_static_assert_proxy_message)
# sig: x=float32[?, 8]
# expect: 9:5: TileStaticAssertionError: Static assertion failed: <array[float32, (?, 8)]>
import cuda.tile as ct


@ct.kernel
def k(x):
    ct.static_assert(False, x)
