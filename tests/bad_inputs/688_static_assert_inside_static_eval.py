# case: static_assert inside static_eval is refused before its condition is looked at (cuTile's test_static_assert_inside_static_eval)
# sig: x=int32[]
# expect: 9:24: TileStaticEvalError: static_assert() cannot be used inside static_eval().
import cuda.tile as ct


@ct.kernel
def k(x):
    v = ct.static_eval(ct.static_assert(20))
    ct.scatter(x, (), v)
