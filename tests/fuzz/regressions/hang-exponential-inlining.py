# sig: a=float32[?], b=float32[?], TILE=16
import cuda.tile as ct

def h0(t):
    return h1(t) + h1(t)

def h1(t):
    return h2(t) + h2(t)

def h2(t):
    return h3(t) + h3(t)

def h3(t):
    return h4(t) + h4(t)

def h4(t):
    return h5(t) + h5(t)

def h5(t):
    return h6(t) + h6(t)

def h6(t):
    return h7(t) + h7(t)

def h7(t):
    return h8(t) + h8(t)

def h8(t):
    return h9(t) + h9(t)

def h9(t):
    return h10(t) + h10(t)

def h10(t):
    return h11(t) + h11(t)

def h11(t):
    return h12(t) + h12(t)

def h12(t):
    return h13(t) + h13(t)

def h13(t):
    return h14(t) + h14(t)

def h14(t):
    return h15(t) + h15(t)

def h15(t):
    return h16(t) + h16(t)

def h16(t):
    return h17(t) + h17(t)

def h17(t):
    return h18(t) + h18(t)

def h18(t):
    return h19(t) + h19(t)

def h19(t):
    return h20(t) + h20(t)

def h20(t):
    return h21(t) + h21(t)

def h21(t):
    return h22(t) + h22(t)

def h22(t):
    return h23(t) + h23(t)

def h23(t):
    return h24(t) + h24(t)

def h24(t):
    return h25(t) + h25(t)

def h25(t):
    return h26(t) + h26(t)

def h26(t):
    return h27(t) + h27(t)

def h27(t):
    return h28(t) + h28(t)

def h28(t):
    return h29(t) + h29(t)

def h29(t):
    return h30(t) + h30(t)

def h30(t):
    return h31(t) + h31(t)

def h31(t):
    return h32(t) + h32(t)

def h32(t):
    return h33(t) + h33(t)

def h33(t):
    return h34(t) + h34(t)

def h34(t):
    return h35(t) + h35(t)

def h35(t):
    return h36(t) + h36(t)

def h36(t):
    return h37(t) + h37(t)

def h37(t):
    return h38(t) + h38(t)

def h38(t):
    return h39(t) + h39(t)

def h39(t):
    return t




@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid,), shape=(TILE,))
    x = h0(x)
    ct.store(b, index=(bid,), tile=x)
