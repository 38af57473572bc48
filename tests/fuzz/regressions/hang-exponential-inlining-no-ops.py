# sig: a=float32[?], b=float32[?], TILE=16
import cuda.tile as ct

def h0(t):
    h1(t)
    h1(t)
    return t

def h1(t):
    h2(t)
    h2(t)
    return t

def h2(t):
    h3(t)
    h3(t)
    return t

def h3(t):
    h4(t)
    h4(t)
    return t

def h4(t):
    h5(t)
    h5(t)
    return t

def h5(t):
    h6(t)
    h6(t)
    return t

def h6(t):
    h7(t)
    h7(t)
    return t

def h7(t):
    h8(t)
    h8(t)
    return t

def h8(t):
    h9(t)
    h9(t)
    return t

def h9(t):
    h10(t)
    h10(t)
    return t

def h10(t):
    h11(t)
    h11(t)
    return t

def h11(t):
    h12(t)
    h12(t)
    return t

def h12(t):
    h13(t)
    h13(t)
    return t

def h13(t):
    h14(t)
    h14(t)
    return t

def h14(t):
    h15(t)
    h15(t)
    return t

def h15(t):
    h16(t)
    h16(t)
    return t

def h16(t):
    h17(t)
    h17(t)
    return t

def h17(t):
    h18(t)
    h18(t)
    return t

def h18(t):
    h19(t)
    h19(t)
    return t

def h19(t):
    h20(t)
    h20(t)
    return t

def h20(t):
    h21(t)
    h21(t)
    return t

def h21(t):
    h22(t)
    h22(t)
    return t

def h22(t):
    h23(t)
    h23(t)
    return t

def h23(t):
    h24(t)
    h24(t)
    return t

def h24(t):
    h25(t)
    h25(t)
    return t

def h25(t):
    h26(t)
    h26(t)
    return t

def h26(t):
    h27(t)
    h27(t)
    return t

def h27(t):
    h28(t)
    h28(t)
    return t

def h28(t):
    h29(t)
    h29(t)
    return t

def h29(t):
    h30(t)
    h30(t)
    return t

def h30(t):
    h31(t)
    h31(t)
    return t

def h31(t):
    h32(t)
    h32(t)
    return t

def h32(t):
    h33(t)
    h33(t)
    return t

def h33(t):
    h34(t)
    h34(t)
    return t

def h34(t):
    h35(t)
    h35(t)
    return t

def h35(t):
    h36(t)
    h36(t)
    return t

def h36(t):
    h37(t)
    h37(t)
    return t

def h37(t):
    h38(t)
    h38(t)
    return t

def h38(t):
    h39(t)
    h39(t)
    return t

def h39(t):
    return t




@ct.kernel
def k(a, b, TILE: ct.Constant[int]):
    bid = ct.bid(0)
    x = ct.load(a, index=(bid,), shape=(TILE,))
    x = h0(x)
    ct.store(b, index=(bid,), tile=x)
