"""Random sorts and scatters through the CPU backend and through the GPU's kernels (bitonic
sort; scatter copy + updates) on the emulator of the thread model, against the evaluator.

Both kernels compute addresses from data (a permutation, an index array), so these draw
what breaks address arithmetic: empty and length-1 dimensions, every sort dimension, NaNs,
infinities and -0.0 under both comparison types, several operands, indices that are
negative, past the end or repeated, windows that overhang, and every index_vector_dim.
A wrong address shows up as a wrong value here, in a test, not as a crash in a notebook.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from fuzz_profile import fuzz_settings
from hypothesis import given
from hypothesis import strategies as st

import hloscope
from hloscope.ir.shape import ArrayShape

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "gpu"))
from emulator import emulated_executable  # noqa: E402

pytestmark = pytest.mark.fuzz

SORT_DTYPES = ("f32", "f64", "bf16", "s32", "u8", "s64", "pred")


def _data(rng, dtype: str, dims, nans: bool = True) -> np.ndarray:
    np_dtype = ArrayShape(dtype, ()).numpy_dtype
    if dtype == "pred":
        return rng.random(dims) < 0.5
    if np.issubdtype(np_dtype, np.integer):
        return rng.integers(0, 6, dims).astype(np_dtype)  # small range: many ties
    x = rng.integers(-3, 4, dims).astype(np_dtype)
    specials = np.array([np.nan if nans else 1.0, np.inf, -np.inf, -0.0, 0.0], np.float64).astype(np_dtype)
    mask = rng.random(dims) < 0.2
    return np.where(mask, rng.choice(specials, dims), x).astype(np_dtype)


def _shape(dtype: str, dims) -> str:
    return f"{dtype}[{','.join(map(str, dims))}]"


@st.composite
def sorts(draw):
    dims = tuple(draw(st.lists(st.integers(0, 7), min_size=1, max_size=3)))
    dim = draw(st.integers(0, len(dims) - 1))
    dtypes = [draw(st.sampled_from(SORT_DTYPES)) for _ in range(draw(st.integers(1, 3)))]
    key = draw(st.integers(0, len(dtypes) - 1))
    direction = draw(st.sampled_from(["LT", "GT"]))
    total = dtypes[key] in ("f32", "f64", "bf16") and draw(st.booleans())
    seed = draw(st.integers(0, 2**32 - 1))
    params = "\n".join(f"  p{i}{s} = {d}[] parameter({2 * i + j})" for i, d in enumerate(dtypes)
                       for j, s in enumerate("ab"))
    compare_type = ", type=TOTALORDER" if total else ""
    comparator = (f"cmp {{\n{params}\n  ROOT c = pred[] compare(p{key}a, p{key}b), "
                  f"direction={direction}{compare_type}\n}}\n")
    shapes = [_shape(d, dims) for d in dtypes]
    result = shapes[0] if len(shapes) == 1 else f"({', '.join(shapes)})"
    entry = "\n".join(f"  x{i} = {s} parameter({i})" for i, s in enumerate(shapes))
    operands = ", ".join(f"x{i}" for i in range(len(shapes)))
    text = (f"HloModule sort\n\n{comparator}\nENTRY main {{\n{entry}\n  ROOT s = {result} sort({operands}), "
            f"dimensions={{{dim}}}, is_stable=true, to_apply=cmp\n}}\n")
    rng = np.random.default_rng(seed)
    # A FLOAT compare is no strict weak order once a key is NaN (NaN < x and x < NaN are both
    # false while x < y holds), so the order would be unspecified: keys get NaNs under
    # TOTALORDER only. Operands that only ride along may hold NaNs either way.
    return text, [_data(rng, d, dims, nans=total or i != key) for i, d in enumerate(dtypes)]


@st.composite
def scatters(draw):
    """scatter of [n, *window] updates into a rank-1..3 operand, index vectors of the
    scattered dims at a drawn index_vector_dim, with repeats, negatives and overhangs."""
    operand = tuple(draw(st.lists(st.integers(1, 6), min_size=1, max_size=3)))
    rank = len(operand)
    scattered = sorted(draw(st.lists(st.integers(0, rank - 1), min_size=1, max_size=rank, unique=True)))
    inserted = [d for d in scattered if draw(st.booleans())]
    window = [d for d in range(rank) if d not in inserted]
    window_sizes = [draw(st.integers(1, operand[d])) for d in window]
    n = draw(st.integers(0, 6))
    vector_first = draw(st.booleans())
    index_dims = (len(scattered), n) if vector_first else (n, len(scattered))
    update_dims = (n, *window_sizes)
    dtype = draw(st.sampled_from(["f32", "s32", "f64", "u8"]))
    combiner = draw(st.sampled_from(["add", "maximum", "replace"]))
    seed = draw(st.integers(0, 2**32 - 1))
    body = "  ROOT c = {t}[] {op}(a, b)" if combiner != "replace" else "  ROOT c = {t}[] copy(b)"
    to_apply = (f"f {{\n  a = {dtype}[] parameter(0)\n  b = {dtype}[] parameter(1)\n"
                + body.format(t=dtype, op=combiner) + "\n}\n")
    update_window_dims = ",".join(str(1 + k) for k in range(len(window)))
    text = (f"HloModule scatter\n\n{to_apply}\nENTRY main {{\n"
            f"  x = {_shape(dtype, operand)} parameter(0)\n"
            f"  i = {_shape('s32', index_dims)} parameter(1)\n"
            f"  u = {_shape(dtype, update_dims)} parameter(2)\n"
            f"  ROOT s = {_shape(dtype, operand)} scatter(x, i, u), update_window_dims={{{update_window_dims}}}, "
            f"inserted_window_dims={{{','.join(map(str, inserted))}}}, "
            f"scatter_dims_to_operand_dims={{{','.join(map(str, scattered))}}}, "
            f"index_vector_dim={0 if vector_first else 1}, to_apply=f\n}}\n")
    rng = np.random.default_rng(seed)
    bounds = np.array([operand[d] for d in scattered])
    starts = rng.integers(-2, bounds + 2, (n, len(scattered))).astype(np.int32)  # some overhang
    indices = starts.T.copy() if vector_first else starts
    np_dtype = ArrayShape(dtype, ()).numpy_dtype
    return text, [rng.integers(0, 50, operand).astype(np_dtype), indices, rng.integers(0, 50, update_dims).astype(np_dtype)]


def _same(got, want) -> None:
    got = got if isinstance(got, tuple) else (got,)
    want = want if isinstance(want, tuple) else (want,)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        if g.dtype.kind not in "biu":  # bf16 included: compare as f64, NaN equal to NaN
            g, w = g.astype(np.float64), w.astype(np.float64)
            assert (np.isnan(w) | (np.signbit(g) == np.signbit(w))).all(), "-0.0 and 0.0 must not swap"
        np.testing.assert_array_equal(g, w)  # exact: a sort or scatter only moves and combines


@fuzz_settings(scale=0.5)
@given(sorts())
def test_random_sorts_match_the_evaluator(case):
    text, args = case
    module = hloscope.parse_hlo(text)
    _same(hloscope.compile(module, backend="cpu", cache=False)(*args), hloscope.evaluate(module, *args))


@fuzz_settings(scale=0.5)
@given(sorts())
def test_random_sorts_on_the_gpu_emulator_match_the_evaluator(case):
    text, args = case
    _same(emulated_executable(text)(*args), hloscope.evaluate(hloscope.parse_hlo(text), *args))


@fuzz_settings(scale=0.5)
@given(scatters())
def test_random_scatters_match_the_evaluator(case):
    text, args = case
    module = hloscope.parse_hlo(text)
    _same(hloscope.compile(module, backend="cpu", cache=False)(*args), hloscope.evaluate(module, *args))


@fuzz_settings(scale=0.5)
@given(scatters())
def test_random_scatters_on_the_gpu_emulator_match_the_evaluator(case):
    """The GPU's copy + update kernels (atomic, CAS or one-thread, by dtype and combiner)."""
    text, args = case
    _same(emulated_executable(text)(*args), hloscope.evaluate(hloscope.parse_hlo(text), *args))
