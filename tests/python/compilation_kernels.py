"""Kernels test_compilation.py exports (a module of their own: the transpiler reads the whole
file a kernel is in)."""
from typing import Annotated

import cuda.tile as ct


@ct.kernel
def load_static_shaped(x: Annotated[ct.Array, ct.ArrayAnnotation(static_shape_dims=(0, 1))], out):
    ct.store(out, (0, 0), ct.load(x, (0, 0), (16, 16)))


@ct.kernel
def stride_dim0(x: Annotated[ct.Array, ct.ArrayAnnotation(static_stride_dims=(0,))], out):
    ct.store(out, (0, 0), ct.load(x, (0, 0), (4, 4)))


@ct.kernel
def shape_and_stride(x: Annotated[ct.Array, ct.ArrayAnnotation(static_shape_dims=(0,),
                                                                static_stride_dims=(0,))], out):
    pass


@ct.kernel
def shape_dim0(x: Annotated[ct.Array, ct.ArrayAnnotation(static_shape_dims=(0,))]):
    pass


@ct.kernel
def duplicate_stride_axis(x: Annotated[ct.Array, ct.ArrayAnnotation(static_stride_dims=(0, 0))]):
    pass


@ct.kernel
def one_array(x):
    pass


@ct.kernel
def two_arrays(x, y):
    pass


@ct.kernel
def bad_rank(x):
    ct.load(x, (0, 0), shape=(2, 2, 4))
