# case: + on two bool tiles names cuTile's op (add)
# sig: 
# expect: 11:5: TileTypeError: Binary arithmetic op `add` does not support bool, please cast bool to int (operator +)
import cuda.tile as ct


@ct.kernel
def k():
    x = ct.full((1,), 0, dtype=ct.bool_)
    y = ct.full((1,), 0, dtype=ct.bool_)
    x + y
