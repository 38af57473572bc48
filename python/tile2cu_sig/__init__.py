"""tile2cu signatures in Python: the text form (`text`, no dependencies) and its translation to
and from cuTile's KernelSignature (`cutile`, needs cuda-tile). See docs/cutile-reference.md."""
from .text import (Array, ArrayList, Constant, Param, Scalar, Signature, canonical_dtype,
                   format_constraint, format_signature, parse_sidecar, parse_signature)

__all__ = ["Array", "ArrayList", "Constant", "Param", "Scalar", "Signature", "canonical_dtype",
           "format_constraint", "format_signature", "parse_sidecar", "parse_signature"]
