"""TMA tensor maps for the NVRTC launch path: the `GemmTensorMaps` / `AttentionTensorMaps` kernel
parameter (runtime/tile2cu/tma.cuh) built from its launch plan entry, as the generated launcher
builds it with gemm_tensor_maps / attention_tensor_maps.

The plan (src/emit/launch_plan.cpp) gives, per CUtensorMap in the struct, cuTensorMapEncodeTiled's
arguments as parts of the launch's arguments (innermost axis first) and the map's offset; here
they are tested as tma.cuh's encode_map tests them before it asks the driver (a contiguous
innermost axis, a 16-byte aligned base, a 128-byte box line, extents and byte strides the copy
engine takes), encoded, and laid into the struct's bytes with `usable` = 1 only where every map
was encoded on a device of compute capability 9 or more, as the launcher does. A map depends on
nothing but those arguments, so each distinct set is encoded once and its bytes reused.
"""

from __future__ import annotations

import struct

from . import _driver_api

# tma.cuh's encode_map: what the copy engine takes.
LINE_BYTES = 128
MAX_DIM = 1 << 32
MAX_BOX = 256
MAX_STRIDE_BYTES = 1 << 40
ADDRESS_ALIGN = STRIDE_ALIGN = 16
_CACHED = 256   # distinct argument sets kept per parameter


class TensorMapsParam:
    """One tensor-map kernel parameter: `names` are the entry's flat argument names it reads;
    calling it with the device's compute capability major and their values gives the struct's
    bytes."""

    def __init__(self, kparam: dict, flat_names: dict, encode=None):
        desc = kparam["value"]["tensor_maps"]
        self.size = kparam["bytes"]
        self.min_major = desc["min_compute_major"]
        usable = desc["usable"]
        if usable["type"] != "int32":
            raise ValueError(f"tensor maps' usable of type {usable['type']}")
        self.usable_offset = usable["offset"]
        self.encode = encode or _driver_api.encode_tensor_map
        names: list[str] = []

        def slot(ref) -> int:
            """The position among `names` of an argument part ({"param", "part", "axis"})."""
            pointer, shapes, strides = flat_names[ref["param"]]
            name = pointer if ref["part"] == "data" else (shapes if ref["part"] == "shape" else strides)[ref["axis"]]
            if name not in names:
                names.append(name)
            return names.index(name)

        self.maps = []
        for m in desc["maps"]:
            rank = m["rank"]
            if not 2 <= rank <= 5 or len(m["box"]) != rank or len(m["global_strides"]) != rank - 1:
                raise ValueError(f"a tensor map of rank {rank} in the plan")
            self.maps.append({
                "offset": m["offset"], "data_type": m["data_type"], "rank": rank,
                "address": slot({"param": m["param"], "part": "data"}),
                "unit_stride": slot(m["unit_stride"]),
                "dims": [slot(d) for d in m["global_dims"]],
                "strides": [(slot(s), s["times"]) for s in m["global_strides"]],
                # Static: a box the copy engine cannot take is never encoded (usable stays 0).
                "box_ok": m["box"][0] * m["elem_bytes"] == LINE_BYTES and all(0 < b <= MAX_BOX for b in m["box"]),
                "fixed": (m["box"], m["element_strides"], m["interleave"], m["swizzle"],
                          m["l2_promotion"], m["oob_fill"]),
            })
        self.names = names
        self.cache: dict = {}

    def __call__(self, major: int, *values) -> bytes:
        key = (major, *values)
        got = self.cache.get(key)
        if got is None:
            if len(self.cache) >= _CACHED:
                self.cache.clear()
            got = self.cache[key] = self._build(major, values)
        return got

    def _build(self, major: int, values) -> bytes:
        out = bytearray(self.size)
        if major < self.min_major:
            return bytes(out)
        for m in self.maps:   # gemm/attention_tensor_maps: `a && b`, so the first failure stops
            args = self._arguments(m, values)
            if args is None:
                return bytes(out)
            rc, image = self.encode(m["data_type"], m["rank"], *args)
            out[m["offset"]:m["offset"] + len(image)] = image
            if rc:
                return bytes(out)
        struct.pack_into("<i", out, self.usable_offset, 1)
        return bytes(out)

    @staticmethod
    def _arguments(m: dict, values):
        """encode_map's tests, then cuTensorMapEncodeTiled's arguments after the rank; None where
        encode_map gives up before asking the driver."""
        address = values[m["address"]]
        if values[m["unit_stride"]] != 1 or address % ADDRESS_ALIGN or not m["box_ok"]:
            return None
        dims = [values[d] for d in m["dims"]]
        if not all(0 < d <= MAX_DIM for d in dims):
            return None
        strides = [values[s] * times for s, times in m["strides"]]
        if not all(0 < s < MAX_STRIDE_BYTES and s % STRIDE_ALIGN == 0 for s in strides):
            return None
        box, unit, interleave, swizzle, l2, oob = m["fixed"]
        return address, dims, strides, box, unit, interleave, swizzle, l2, oob
