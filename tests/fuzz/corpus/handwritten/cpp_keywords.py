# sig: this=float32[?], template=float32[?], auto=16
import cuda.tile as ct


@ct.kernel
def new(this, template, auto: ct.Constant[int]):
    int = ct.bid(0)
    float = ct.load(this, index=(int,), shape=(auto,))
    threadIdx = float * 2.0
    smem = threadIdx + 1.0
    ct.store(template, index=(int,), tile=smem)
