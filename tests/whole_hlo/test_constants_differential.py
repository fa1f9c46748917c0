"""Generated constants of every element type, judged by XLA's own parser (jaxlib): hloscope
accepts exactly what XLA accepts, and where both accept, XLA's print of the module reads back
in hloscope as the same values, and XLA reads hloscope's print as the same values too."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hloscope as hs
from hloscope.ir.dtypes import ELEMENT_TYPES

pytest.importorskip("jax", reason="jax (the optional 'jax' extra) is not installed")
from jax._src.lib import xla_client  # noqa: E402

pytestmark = [pytest.mark.jax, pytest.mark.fuzz]

TYPES = sorted(ELEMENT_TYPES)


def _value_text(name: str, kind: str):
    ints = st.integers(-(2**65), 2**65).map(str) | st.integers(-20, 20).map(str)
    floats = st.floats(allow_nan=False, allow_infinity=True, width=64).map(repr).map(
        lambda r: r.replace("inf", "inf").removesuffix(".0")) | st.sampled_from(["0.1", "-0.5", "448", "1e39", "nan"])
    if kind == "pred":
        return st.sampled_from(["true", "false"])
    if kind in ("signed", "unsigned"):
        return ints
    if name == "f8e8m0fnu":
        # XLA prints 2^-127 as 5.9e-39, which reads back (rounding up, as e8m0 does) as
        # 2^-126 in XLA and in ml_dtypes alike: stay clear of its printing quirk there
        return floats.filter(lambda r: r in ("nan", "inf", "-inf") or not 0 < abs(float(r)) < 2.0**-125)
    if kind == "complex":
        return st.tuples(floats, floats).map(lambda p: f"({p[0]}, {p[1]})")
    return floats


@st.composite
def constants(draw):
    name = draw(st.sampled_from(TYPES))
    values = draw(st.lists(_value_text(name, ELEMENT_TYPES[name].kind), min_size=1, max_size=3))
    return f"{name}[{len(values)}] constant({{{', '.join(values)}}})"


def _xla(text):
    try:
        return xla_client.hlo.hlo_module_from_text(text).to_string()
    except Exception:
        return None


def _values(module):
    lit = module.entry_computation.instructions[-1].literal
    return lit.value


def _same(a, b):
    if a.dtype != b.dtype:
        return False
    wide = a.astype(np.complex128) if a.dtype.kind == "c" else a.astype(np.float64) if a.dtype.kind in "fV" and not np.issubdtype(a.dtype, np.integer) else a
    other = b.astype(wide.dtype)
    return np.array_equal(wide, other, equal_nan=True)


@settings(max_examples=150, deadline=None)
@given(constants())
def test_constants_are_accepted_as_xla_accepts_them(constant):
    text = f"HloModule m\nENTRY e {{\n  ROOT c = {constant}\n}}\n"
    theirs = _xla(text)
    try:
        ours = hs.parse_hlo(text)
    except hs.HloParseError:
        ours = None
    assert (ours is None) == (theirs is None), f"XLA {'accepts' if theirs else 'rejects'} {constant}"
    if ours is None or theirs is None:
        return
    assert _same(_values(hs.parse_hlo(theirs)), _values(ours)), (constant, theirs)
    back = _xla(ours.to_text())
    assert back is not None and _same(_values(hs.parse_hlo(back)), _values(ours)), (constant, ours.to_text())
