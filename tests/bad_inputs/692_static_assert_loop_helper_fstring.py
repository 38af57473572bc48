# case: static_assert evaluates a plain helper with a for loop at compile time, and its f-string message with an array's proxy (cuTile's test_static_assert.py)
# sig: x=int32[], n=7
# expect: 16:5: TileStaticAssertionError: Static assertion failed: 7! = 5040, that's too much. And by the way, x is <array[int32, ()]>
import cuda.tile as ct


def factorial(n):
    ret = 1
    for i in range(1, n + 1):
        ret *= i
    return ret


@ct.kernel
def k(x, n: ct.Constant):
    ct.static_assert(factorial(n) < 100,
                     f"{n}! = {factorial(n)}, that's too much. And by the way, x is {x}")
    ct.scatter(x, (), n)
