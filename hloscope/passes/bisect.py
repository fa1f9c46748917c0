"""`bisect(module)`: which pass changed the program's result?

Runs the pipeline, evaluates the module as it was before the first pass and after every
pass that changed it, and names the first pass after which the outputs differ beyond the
tolerance, with the largest absolute error. Without arguments it makes random ones of the
ENTRY's parameter shapes (seeded, so a run can be repeated).

    result = hloscope.bisect(module)            # or bisect(module, x, w, pipeline="simplify")
    print(result)   # "No pass changes the result: 9 changed pass runs checked ..." or
                    # "The result first changes after algsimp (simplification, iteration 0): ..."
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import HloscopeError
from ..evaluator import evaluate
from ..ir.module import HloModule
from ..ir.shape import ArrayShape, Shape, TupleShape
from .pipelines import Spec, resolve
from .record import PassRecord


@dataclass
class BisectResult:
    """The first pass whose output disagrees with the input module, or None."""

    record: PassRecord | None  # the culprit's record (None: every pass agreed)
    max_abs_error: float  # at the culprit, or the largest seen when none is to blame
    checked: int  # how many changed pass runs were evaluated
    rtol: float
    atol: float
    error: str | None = None  # why the culprit's output could not be evaluated, if so

    @property
    def pass_name(self) -> str | None:
        return self.record.name if self.record else None

    def __bool__(self) -> bool:
        """True when a pass was found to change the result."""
        return self.record is not None

    def __str__(self) -> str:
        tol = f"rtol={self.rtol:g}, atol={self.atol:g}"
        if self.record is None:
            return (
                f"No pass changes the result: {self.checked} changed pass runs checked, "
                f"largest absolute error {self.max_abs_error:.3g} ({tol})."
            )
        r = self.record
        where = f"{r.name} ({r.pipeline}, iteration {r.iteration})"
        if self.error:
            return f"The result first changes after {where}: the module no longer evaluates ({self.error})."
        return (
            f"The result first changes after {where}: largest absolute error "
            f"{self.max_abs_error:.3g} ({tol}); {self.checked} changed pass runs checked."
        )


def random_arguments(module: HloModule, seed: int = 0) -> list:
    """Seeded random arguments for the ENTRY's parameters (normal floats, small integers)."""
    rng = np.random.default_rng(seed)
    return [_random_value(p.shape, rng) for p in module.entry_computation.parameters]


def _random_value(shape: Shape, rng: np.random.Generator):
    if isinstance(shape, TupleShape):
        return tuple(_random_value(s, rng) for s in shape.elements)
    if not isinstance(shape, ArrayShape):
        raise HloscopeError(f"cannot make a random argument of shape {shape}")
    kind = shape.element_type.kind
    if kind == "pred":
        return rng.random(shape.dims) < 0.5
    if kind == "float":
        return rng.standard_normal(shape.dims).astype(shape.numpy_dtype)
    low = 0 if kind == "unsigned" else -8
    return rng.integers(low, 9, shape.dims).astype(shape.numpy_dtype)


def flat_outputs(value) -> list[np.ndarray]:
    """A result as a flat list of arrays (tuples flattened in order)."""
    if isinstance(value, tuple):
        return [a for v in value for a in flat_outputs(v)]
    return [np.asarray(value)]


def max_abs_error(got: list[np.ndarray], want: list[np.ndarray]) -> float:
    """The largest |got - want| over all outputs (inf if shapes differ or NaNs disagree)."""
    if len(got) != len(want):
        return float("inf")
    worst = 0.0
    for g, w in zip(got, want):
        if g.shape != w.shape:
            return float("inf")
        g64, w64 = g.astype(np.float64), w.astype(np.float64)
        if not np.array_equal(np.isnan(g64), np.isnan(w64)):
            return float("inf")
        with np.errstate(invalid="ignore"):  # inf - inf where both are inf: equal, masked below
            diff = np.where((g64 == w64) | np.isnan(g64), 0.0, np.abs(g64 - w64))
        worst = max(worst, float(np.max(diff, initial=0.0)))
    return worst


def close(got: list[np.ndarray], want: list[np.ndarray], rtol: float, atol: float) -> bool:
    """Every output equal within tolerance (NaNs where the reference has NaNs)."""
    return len(got) == len(want) and all(
        g.shape == w.shape
        and np.allclose(g.astype(np.float64), w.astype(np.float64), rtol, atol, equal_nan=True)
        for g, w in zip(got, want)
    )


def bisect(
    module: HloModule,
    *args,
    pipeline: Spec = "default",
    rtol: float = 1e-5,
    atol: float = 1e-6,
    seed: int = 0,
) -> BisectResult:
    """Find the first pass of `pipeline` after which `module`'s outputs change on `args`."""
    module.verify()  # an invalid input is the input's fault, not the first pass's
    args = list(args) if args else random_arguments(module, seed)
    records: list[PassRecord] = []
    resolve(pipeline).run(module, records)
    want = flat_outputs(evaluate(module, *args))
    checked, worst = 0, 0.0
    for record in (r for r in records if r.changed):
        checked += 1
        try:
            got = flat_outputs(evaluate(record.after, *args))
        except HloscopeError as e:
            return BisectResult(record, float("inf"), checked, rtol, atol, error=str(e))
        error = max_abs_error(got, want)
        if not close(got, want, rtol, atol):
            return BisectResult(record, error, checked, rtol, atol)
        worst = max(worst, error)
    return BisectResult(None, worst, checked, rtol, atol)
