"""cuTile's enums. Kernels use them as compile-time constants; the transpiler reads them from the
source, so here they only need to exist with cuTile's names and members."""

import enum


class PaddingMode(enum.Enum):
    UNDETERMINED = "undetermined"
    ZERO = "zero"
    NEG_ZERO = "neg_zero"
    NAN = "nan"
    POS_INF = "pos_inf"
    NEG_INF = "neg_inf"


class RoundingMode(enum.Enum):
    RN = "rn"
    RZ = "rz"
    RM = "rm"
    RP = "rp"
    RA = "ra"
    FULL = "full"
    APPROX = "approx"
    RZI = "rzi"


class MemoryOrder(enum.Enum):
    WEAK = "weak"
    RELAXED = "relaxed"
    ACQUIRE = "acquire"
    RELEASE = "release"
    ACQ_REL = "acq_rel"


class MemoryScope(enum.Enum):
    NONE = "none"
    BLOCK = "block"
    CLUSTER = "cluster"
    DEVICE = "device"
    SYS = "sys"
