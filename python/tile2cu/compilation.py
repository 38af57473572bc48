"""`cuda.tile.compilation`: ahead-of-time export of kernels for explicit signatures (cubin, PTX
or tile2cu's CUDA C++). See _constraints (the signature), _derive_constraints
(`KernelSignature.from_kernel_args`) and _export (`export_kernel`)."""

from ._constraints import (ArrayConstraint, CallingConvention, ConstantConstraint,  # noqa: F401
                           KernelSignature, ListConstraint, ScalarConstraint, TupleConstraint)
from ._export import export_kernel  # noqa: F401
from ._mangling import demangle_kernel_name, mangle_kernel_name  # noqa: F401

ParameterConstraint = (ScalarConstraint | ArrayConstraint | ListConstraint | TupleConstraint
                       | ConstantConstraint)
ConstantValue = bool | int | float

__all__ = ["ArrayConstraint", "CallingConvention", "ConstantConstraint", "ConstantValue",
           "KernelSignature", "ListConstraint", "ParameterConstraint", "ScalarConstraint",
           "TupleConstraint", "demangle_kernel_name", "export_kernel", "mangle_kernel_name"]
