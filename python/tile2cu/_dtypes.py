"""cuTile's dtype objects (`ct.float32`, ...) and the mapping from foreign dtypes to them."""

from __future__ import annotations


class DType:
    """A cuTile data type. Host-side it only names itself; kernels use it at compile time."""

    __slots__ = ("name", "bitwidth", "kind", "_typestr")

    def __init__(self, name: str, bitwidth: int, kind: str, typestr: str | None):
        self.name = name
        self.bitwidth = bitwidth
        self.kind = kind          # "b" bool, "i" signed, "u" unsigned, "f" float, "r" restricted float
        self._typestr = typestr   # __cuda_array_interface__ typestr, None where numpy has none

    @property
    def itemsize(self) -> int:
        return max(1, self.bitwidth // 8)

    def __repr__(self) -> str:
        return f"cuda.tile.{self.name}"

    def __str__(self) -> str:
        # The bare name, as cuTile prints a dtype: its messages and its tests' expected texts
        # are f-strings of dtypes ("the update dtype (int64) ...").
        return self.name

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"{self.name}(...) is tile code: it can only be called inside a kernel")

    def __reduce__(self):
        return (_by_name, (self.name,))


def _by_name(name: str) -> DType:
    return ALL[name]


def _make(name, bits, kind, typestr):
    return DType(name, bits, kind, typestr)


bool_ = _make("bool_", 8, "b", "|b1")
int8 = _make("int8", 8, "i", "|i1")
int16 = _make("int16", 16, "i", "<i2")
int32 = _make("int32", 32, "i", "<i4")
int64 = _make("int64", 64, "i", "<i8")
uint8 = _make("uint8", 8, "u", "|u1")
uint16 = _make("uint16", 16, "u", "<u2")
uint32 = _make("uint32", 32, "u", "<u4")
uint64 = _make("uint64", 64, "u", "<u8")
float16 = _make("float16", 16, "f", "<f2")
bfloat16 = _make("bfloat16", 16, "f", None)
float32 = _make("float32", 32, "f", "<f4")
float64 = _make("float64", 64, "f", "<f8")
tfloat32 = _make("tfloat32", 32, "r", None)
float8_e4m3fn = _make("float8_e4m3fn", 8, "r", None)
float8_e5m2 = _make("float8_e5m2", 8, "r", None)
float8_e8m0fnu = _make("float8_e8m0fnu", 8, "r", None)
float8_e5m3fnu = _make("float8_e5m3fnu", 8, "r", None)
float4_e2m1fn = _make("float4_e2m1fn", 4, "r", None)

ALL = {d.name: d for d in (bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16,
                           bfloat16, float32, float64, tfloat32, float8_e4m3fn, float8_e5m2,
                           float8_e8m0fnu, float8_e5m3fnu, float4_e2m1fn)}

# The dtypes the transpiler's signatures can name, with their spelling there: every dtype an
# array may have in cuTile but float8_e8m0fnu (scale factors), float8_e5m3fnu and float4_e2m1fn,
# which tile2cu does not compute with yet. (tfloat32 exists only in tiles.)
SIGNATURE_NAME = {bool_: "bool", int8: "int8", int16: "int16", int32: "int32", int64: "int64",
                  uint8: "uint8", uint16: "uint16", uint32: "uint32", uint64: "uint64",
                  float16: "float16", bfloat16: "bfloat16", float32: "float32", float64: "float64",
                  float8_e4m3fn: "float8_e4m3fn", float8_e5m2: "float8_e5m2"}

# __cuda_array_interface__ typestrs ('<' and '|' byte orders; '=' is native, little on CUDA hosts).
_BY_TYPESTR = {}
for _d in ALL.values():
    if _d._typestr:
        _BY_TYPESTR[_d._typestr] = _d
        _BY_TYPESTR["<" + _d._typestr[1:]] = _d
        _BY_TYPESTR["|" + _d._typestr[1:]] = _d
        _BY_TYPESTR["=" + _d._typestr[1:]] = _d


def from_typestr(typestr: str) -> DType | None:
    return _BY_TYPESTR.get(typestr)


# DLPack (type code, bits) -> dtype. Codes from dlpack.h: 0 int, 1 uint, 2 float, 4 bfloat,
# 6 bool, 7..17 the float8/float6/float4 kinds.
_BY_DLPACK = {(0, 8): int8, (0, 16): int16, (0, 32): int32, (0, 64): int64,
              (1, 8): uint8, (1, 16): uint16, (1, 32): uint32, (1, 64): uint64,
              (2, 16): float16, (2, 32): float32, (2, 64): float64, (4, 16): bfloat16,
              (6, 8): bool_, (10, 8): float8_e4m3fn, (12, 8): float8_e5m2, (14, 8): float8_e8m0fnu}


def from_dlpack(code: int, bits: int) -> DType | None:
    return _BY_DLPACK.get((code, bits))


def from_foreign(obj) -> DType | None:
    """`ct.float16`, `torch.float16`, `numpy.float16`, `numpy.dtype('float16')` -> ct.float16."""
    if isinstance(obj, DType):
        return obj
    name = getattr(obj, "name", None)
    if not isinstance(name, str):
        name = getattr(obj, "__name__", None)
    if not isinstance(name, str):
        text = str(obj)
        name = text.rsplit(".", 1)[-1]
    if name == "bool":
        name = "bool_"
    return ALL.get(name)
