"""Values for fuzzing: random arrays of any HLO dtype, and comparison with documented tolerances.

Floats are drawn from [-3, 3] with some exact zeros and ones; integers mostly small, with an
occasional extreme (MIN, MAX) so that wrap-around and INT_MIN / -1 get exercised. The same
seed always gives the same arrays.

Tolerances (docs/reliability.md): results are compared per element with
`|got - want| <= atol + rtol * |want|`, NaN equal to NaN and infinities equal only to
themselves. Integers and preds must match exactly.
"""

from __future__ import annotations

import numpy as np

from hloscope.ir.dtypes import from_numpy
from hloscope.ir.shape import ArrayShape, TupleShape

# (rtol, atol) per float dtype. Passes: the same evaluator runs both modules, and the only
# rewrites that change rounding are exact ones (x / 2 -> x * 0.5), so this is nearly exact.
PASS_TOLERANCE = {"f64": (1e-12, 1e-300), "f32": (1e-5, 1e-30), "f16": (2e-3, 1e-6), "bf16": (2e-2, 1e-6)}
# A native backend: transcendental approximations within a few ulps, reductions and dots
# summed in another order (vector partial sums, BLAS); a chain of ops spreads that further.
NATIVE_TOLERANCE = {"f64": (1e-9, 1e-9), "f32": (1e-4, 1e-4), "f16": (1e-2, 1e-2), "bf16": (5e-2, 5e-2)}


def random_array(rng: np.random.Generator, dtype: str, dims: tuple[int, ...]) -> np.ndarray:
    """An array of HLO type `dtype` and shape `dims`."""
    np_dtype = ArrayShape(dtype, dims).numpy_dtype
    if dtype == "pred":
        return rng.random(dims) < 0.5
    if np_dtype.kind in "iu":
        return _integers(rng, np_dtype, dims)
    values = rng.uniform(-3, 3, dims)
    special = rng.random(dims)
    values = np.where(special < 0.05, 0.0, np.where(special > 0.95, 1.0, values))
    return np.asarray(values).astype(np_dtype)


def _integers(rng: np.random.Generator, np_dtype: np.dtype, dims) -> np.ndarray:
    info = np.iinfo(np_dtype)
    small = rng.integers(max(info.min, -8), min(info.max, 8) + 1, dims)
    extreme = rng.choice(np.array([info.min, info.max], dtype=np_dtype), dims)
    return np.where(rng.random(dims) < 0.05, extreme, small.astype(np_dtype)).astype(np_dtype)


def random_arguments(module, seed: int) -> list[np.ndarray]:
    """One array per ENTRY parameter (tuple parameters get tuples), reproducible from `seed`."""
    rng = np.random.default_rng(seed)
    return [_value(rng, p.shape) for p in module.entry_computation.parameters]


def _value(rng, shape):
    if isinstance(shape, TupleShape):
        return tuple(_value(rng, s) for s in shape.elements)
    return random_array(rng, shape.dtype, shape.dims)


def flatten(value) -> list[np.ndarray]:
    """The arrays of a (possibly nested) tuple result, in order."""
    if isinstance(value, tuple):
        return [a for v in value for a in flatten(v)]
    return [np.asarray(value)]


def assert_same(got, want, tolerance: dict = PASS_TOLERANCE, where: str = "") -> None:
    """Equal results: same structure, shapes and dtypes; floats within `tolerance`."""
    got, want = flatten(got), flatten(want)
    assert len(got) == len(want), f"{where}: {len(got)} outputs, expected {len(want)}"
    for i, (g, w) in enumerate(zip(got, want)):
        msg = f"{where}: output {i}"
        assert g.shape == w.shape and g.dtype == w.dtype, f"{msg}: {g.dtype}{list(g.shape)} vs {w.dtype}{list(w.shape)}"
        if w.dtype.kind in "biu":
            np.testing.assert_array_equal(g, w, err_msg=msg)
            continue
        rtol, atol = tolerance[_hlo_name(w.dtype)]
        g64, w64 = g.astype(np.float64), w.astype(np.float64)
        np.testing.assert_allclose(g64, w64, rtol=rtol, atol=atol, equal_nan=True, err_msg=msg)


def _hlo_name(np_dtype: np.dtype) -> str:
    return from_numpy(np_dtype).name


def module_tolerance(module, table: dict) -> dict:
    """`table` with every float entry replaced by the loosest among the float types the module
    uses anywhere: an f32 output computed through bf16 carries bf16's error."""
    used = {inst.shape.dtype for _, inst in module.all_instructions() if inst.shape.is_array}
    loosest = max((table[d] for d in used if d in table), default=None)
    return {d: loosest for d in table} if loosest else table


def assert_matches_evaluator(module, args, got, where: str = "") -> None:
    """`got` agrees with the evaluator by hloscope's error model (compilation/error_model.py):
    per output, against the module evaluated in f64, allowing a multiple of what an f32
    evaluation is off by; a fixed tolerance relative to the output's scale where f64 means
    nothing. Integers and preds exactly; NaN and infinities in the same places."""
    from hloscope.compilation.checks import check_against_evaluator, flat_outputs
    from hloscope.compilation.error_model import evaluator_references
    from hloscope.evaluator import evaluate

    want = flat_outputs(evaluate(module, *args))
    got_flat = flatten(got)
    for i, (g, w) in enumerate(zip(got_flat, want)):
        assert g.dtype == w.dtype, f"{where}: output {i}: {g.dtype} vs {w.dtype}"
    check = check_against_evaluator(evaluator_references(module, args, want), got_flat)
    assert check.ok, f"{where}: {check.describe()}"
