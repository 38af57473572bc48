# case: a conditional expression with a run-time condition whose sides differ in type (cuTile's
# test_control_flow.py::test_if_else_assignment_type_mismatch): one if/else result, one type
# sig: x=float32[?], condition0=bool, tile=128
# expect: 12:10: TileTypeError: Type of the conditional expression depends on path taken: bool_ vs. Tile[float32,(128,)]
import cuda.tile as ct


@ct.kernel
def k(x, condition0: bool, tile: ct.Constant[int]):
    i = ct.bid(0)
    xi = ct.load(x, index=(i,), shape=(tile,))
    xi = condition0 if condition0 else xi - 1
    ct.store(x, index=(i,), tile=xi)
