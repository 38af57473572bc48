# case: a tfloat32 array in --sig: tfloat32 only exists as a tile made by astype
# sig: a=tfloat32[?, ?], b=float32[?, ?]
# expect-origin: --sig #1
# expect: 1:3: SignatureError: tfloat32 arrays do not exist
import cuda.tile as ct


@ct.kernel
def k(a, b):
    ct.store(a, index=(0, 0), tile=ct.load(a, index=(0, 0), shape=(16, 16)))
