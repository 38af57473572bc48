"""pytest: python/tile2cu_sig, tile2cu's signature text and its translation to and from cuTile's
KernelSignature. Run by tests/cutile_diff/run_pytest.py (ctest `cutile_signatures`) inside the
cuTile environment; the text tests also run without cuTile."""
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))

from tile2cu_sig import (Array, ArrayList, Constant, Scalar, format_signature,  # noqa: E402
                         parse_sidecar, parse_signature)

SIDECAR_LINES = [(f"{p.name}:{no}", sig) for p in sorted((ROOT / "samples").rglob("*.sigs"))
                 for no, sig in parse_sidecar(p.read_text())]


# ---- text form ---------------------------------------------------------------------------------

def test_parses_every_form():
    s = parse_signature("f16 = vector_add(a=f16[?, 128] contiguous align16, b=half[?], "
                        "s=float, TILE=1024, SHAPE=(64, 2), EPS=1e-05, FLAG=True, ONE=(3,))")
    assert (s.spec_name, s.kernel) == ("f16", "vector_add")
    c = {p.name: p.constraint for p in s.params}
    assert c["a"] == Array("float16", (None, 128), align16=True, contiguous=True)
    assert c["b"] == Array("float16", (None,))
    assert c["s"] == Scalar("float32")
    assert parse_signature("a=f8e4m3[?], b=float8_e5m2[?], c=tf32").params[0].constraint == \
        Array("float8_e4m3fn", (None,))
    assert [c[k].value for k in ("TILE", "SHAPE", "EPS", "FLAG", "ONE")] == \
        [1024, (64, 2), 1e-05, True, (3,)]


def test_bare_and_positional_lists():
    s = parse_signature("float32[?], int32, -3")
    assert s.kernel is None and [p.name for p in s.params] == [None, None, None]
    assert s.params[2].constraint == Constant(-3)
    assert format_signature(s) == "float32[?], int32, -3"


def test_lists_of_arrays():
    s = parse_signature("k(xs=list[bf16[?, 64] align16 contiguous], ys = list [ float32[?] ], "
                        "n=int)")
    c = {p.name: p.constraint for p in s.params}
    assert c["xs"] == ArrayList(Array("bfloat16", (None, 64), align16=True, contiguous=True))
    assert c["ys"] == ArrayList(Array("float32", (None,)))
    assert format_signature(s) == \
        "k(xs=list[bfloat16[?, 64] align16 contiguous], ys=list[float32[?]], n=int32)"


@pytest.mark.parametrize("text, what", [
    ("xs=list[int32]", "a list holds arrays"),
    ("xs=list[4]", "a list holds arrays"),
    ("xs=list[float32[?]", "expected ']'"),
    ("xs=list float32[?]", "expected '['"),
    ("a=float33[?]", "unknown dtype"),
    ("a=float32[0]", "positive integer"),
    ("a=float32[?], int32", "positional constraint cannot follow"),
    ("a=float32[?, ?, ?, ?, ?, ?]", "rank above 5"),
    ("k(a=float32[?]", "expected ')'"),
    ("a=float32[?] extra", "unexpected text"),
])
def test_rejects_malformed(text, what):
    with pytest.raises(ValueError, match=re.escape(what)):
        parse_signature(text)


@pytest.mark.parametrize("where, sig", SIDECAR_LINES, ids=[w for w, _ in SIDECAR_LINES])
def test_sidecars_round_trip_as_text(where, sig):
    assert parse_signature(format_signature(sig)) == sig


def test_by_name_matches_kernel_order():
    s = parse_signature("TILE=8, a=float32[?]")
    assert list(s.by_name(["a", "TILE"])) == ["a", "TILE"]
    with pytest.raises(ValueError, match="no constraint for parameter"):
        s.by_name(["a", "b", "TILE"])
    with pytest.raises(ValueError, match="names no parameter"):
        s.by_name(["a"])


# ---- cuTile KernelSignature ----------------------------------------------------------------------

def _cutile():
    return pytest.importorskip("cuda.tile.compilation", reason="cuda-tile is not installed")


def _names(sig):
    return [p.name for p in sig.params]


@pytest.mark.parametrize("where, sig", SIDECAR_LINES, ids=[w for w, _ in SIDECAR_LINES])
def test_sidecars_round_trip_through_cutile(where, sig):
    _cutile()
    from tile2cu_sig.cutile import from_kernel_signature, to_kernel_signature
    ks = to_kernel_signature(sig, _names(sig))
    back, dropped = from_kernel_signature(ks, _names(sig), kernel=sig.kernel,
                                          spec_name=sig.spec_name)
    assert back == sig and dropped == []
    # The mangled symbol carries the whole signature: cuTile's own demangler gives it back.
    cc = _cutile()
    name, demangled = cc.demangle_kernel_name(ks.symbol)
    assert name == sig.kernel
    again, _ = from_kernel_signature(demangled, _names(sig), kernel=sig.kernel,
                                     spec_name=sig.spec_name)
    assert again == sig


def test_declared_constraints_in_cutile_terms():
    cc = _cutile()
    import cuda.tile as ct
    from tile2cu_sig.cutile import SHARED_ALIAS_GROUP, to_kernel_signature
    sig = parse_signature("k(x=bfloat16[?, 64] align16 contiguous, y=float32[?], s=float32, "
                          "T=(4, 8))")
    x, y, s, t = to_kernel_signature(sig, ["x", "y", "s", "T"]).parameters
    assert (x.dtype, x.ndim, x.index_dtype) == (ct.bfloat16, 2, ct.int32)
    assert x.shape_constant == (None, 64) and x.stride_constant == (None, 1)
    assert x.base_addr_divisible_by == 16 and y.base_addr_divisible_by == 1
    assert x.alias_groups == (SHARED_ALIAS_GROUP,) and x.may_alias_internally
    assert y.stride_lower_bound_incl == (0,)  # cuTile 1.7 refuses negative strides
    assert s == cc.ScalarConstraint(ct.float32)
    assert t == cc.TupleConstraint([4, 8])


def test_lists_in_cutile_terms():
    cc = _cutile()
    import cuda.tile as ct
    from tile2cu_sig.cutile import (SHARED_ALIAS_GROUP, from_kernel_signature,
                                    to_kernel_signature)
    sig = parse_signature("k(xs=list[float16[?] align16], y=float32[?], T=8)")
    xs, y, _ = to_kernel_signature(sig, ["xs", "y", "T"]).parameters
    assert isinstance(xs, cc.ListConstraint) and xs.elements_may_alias
    assert xs.alias_groups == ()  # cuTile refuses list storage in an array's alias group
    assert (xs.element.dtype, xs.element.ndim, xs.element.base_addr_divisible_by) == \
        (ct.float16, 1, 16)
    assert xs.element.alias_groups == y.alias_groups == (SHARED_ALIAS_GROUP,)
    # A lone list: no alias group (cuTile refuses a group named once).
    lone = to_kernel_signature(parse_signature("k(xs=list[float32[?]])"), ["xs"]).parameters[0]
    assert lone.element.alias_groups == () and lone.elements_may_alias
    fresh = to_kernel_signature(sig, ["xs", "y", "T"], assumptions="fresh_arrays")
    assert not fresh.parameters[0].elements_may_alias
    back, dropped = from_kernel_signature(fresh, ["xs", "y", "T"], kernel="k")
    assert format_signature(back) == "k(xs=list[float16[?] align16], y=float32[?] align16, T=8)"
    assert "xs: elements_may_alias False" in dropped


def test_fresh_arrays_add_what_torch_arrays_satisfy():
    _cutile()
    from tile2cu_sig.cutile import from_kernel_signature, to_kernel_signature
    sig = parse_signature("k(a=float32[?], b=float32[?], N=4)")
    ks = to_kernel_signature(sig, ["a", "b", "N"], assumptions="fresh_arrays")
    a = ks.parameters[0]
    assert a.base_addr_divisible_by == 16 and a.alias_groups == () and not a.may_alias_internally
    back, dropped = from_kernel_signature(ks, ["a", "b", "N"], kernel="k")
    assert format_signature(back) == "k(a=float32[?] align16, b=float32[?] align16, N=4)"
    assert "a: alias_groups ()" in dropped and "b: may_alias_internally False" in dropped


def test_reverse_keeps_what_tile2cu_can_state_and_lists_the_rest():
    cc = _cutile()
    import cuda.tile as ct
    from tile2cu_sig.cutile import from_kernel_signature
    a = cc.ArrayConstraint(ct.int8, 3, index_dtype=ct.int32, stride_lower_bound_incl=0,
                           alias_groups=(), may_alias_internally=False,
                           stride_constant=(None, 7, 1), shape_constant=(None, 3, None),
                           shape_divisible_by=(16, 1, 4), base_addr_divisible_by=32)
    ks = cc.KernelSignature([a, 2.5, False], cc.CallingConvention.cutile_python_v2())
    sig, dropped = from_kernel_signature(ks, ["a", "ALPHA", "FLAG"])
    assert format_signature(sig) == "a=int8[?, 3, ?] align16 contiguous, ALPHA=2.5, FLAG=False"
    assert "a: stride_constant (None, 7, 1)" in dropped
    assert "a: shape_divisible_by (16, 1, 4)" in dropped


@pytest.mark.parametrize("make, what", [
    (lambda cc, ct: cc.ArrayConstraint(ct.float32, 1, index_dtype=ct.int64,
                                       stride_lower_bound_incl=0, alias_groups=(),
                                       may_alias_internally=False), "index with int32"),
    (lambda cc, ct: cc.ScalarConstraint(ct.float8_e8m0fnu), "no tile2cu equivalent"),
    (lambda cc, ct: cc.ListConstraint(
        cc.ArrayConstraint(ct.float32, 1, index_dtype=ct.int64, stride_lower_bound_incl=0,
                           alias_groups=(), may_alias_internally=False),
        alias_groups=(), elements_may_alias=False), "index with int32"),
    (lambda cc, ct: cc.TupleConstraint([cc.ScalarConstraint(ct.int32), 3]), "TupleConstraint"),
])
def test_reverse_refuses_what_tile2cu_cannot_honour(make, what):
    cc = _cutile()
    import cuda.tile as ct
    from tile2cu_sig.cutile import from_kernel_signature
    ks = cc.KernelSignature([make(cc, ct)], cc.CallingConvention.cutile_python_v2())
    with pytest.raises(ValueError, match=what):
        from_kernel_signature(ks, ["p"])
