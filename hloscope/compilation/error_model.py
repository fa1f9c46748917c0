"""How far hloscope's outputs may be from the reference, judged per output by its scale.

    refs = evaluator_references(module, inputs, evaluator_outputs)   f32 and f64 evaluations
    verdict = judge_output(i, "dot.3", ours, expected, refs[i], against_evaluator=True)

XLA's tests give each comparison an ErrorSpec (abs, rel) and JAX's a tolerance per dtype:
fixed numbers, too loose for a tiny output and too tight for a long f32 sum. Here the
yardstick is the program itself evaluated in f64 (evaluator/widen.py), and the allowance is
what an f32 evaluation of the same program incurs against it:

    error     = max |ours - f64 reference|              over the elements finite in both
    scale     = max |f64 reference|                     (smallest normal when all zero)
    allowed   = F32_MULTIPLE * growth(n) * max |f32 evaluation - f64 reference|
                + ULP_SLACK * (1 + log2(n)) ulps of scale
    growth(n) = max(1, sqrt(n / (NARROWEST_LANES * log2(n)))),  n the longest sum in the module

The growth is how much worse than numpy's pairwise sum (whose rounding grows as
sqrt(log2 n)) a compiled sum of n terms may be, kept in partial sums as wide as the CPU's
vectors (its rounding grows as sqrt(n / lanes)): at least NARROWEST_LANES of them, SSE's.

A different summation order moves an f32 result by about as much as the evaluator's own
rounding, so it passes; an off-by-one index or a wrong constant moves it by a fraction of
its scale, far beyond. Integers and predicates must be equal, and NaN and +-inf must sit
where the f32 evaluation has them (f64 may not overflow where f32 does).

Where the f64 reference means nothing (bit-level ops, no narrow floats, an op the evaluator
cannot widen), or where it is further from the f32 evaluation than the fixed tolerance and
the program has a comparison, rounding or float-to-int convert that may have decided
differently in f64, the output is judged against the f32 evaluation with FIXED_TOLERANCE
times its scale, and the verdict says why. Without such a decision a large f32 error is
cancellation, which the f64 model judges correctly (the allowance grows with it).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..evaluator.widen import evaluate_widened, rounding_decisions
from ..ir.dtypes import finfo

# hloscope may be off by this many times what an f32 evaluation is. The evaluator sums
# pairwise (numpy) and through BLAS, unusually accurately; hloscope's compiled reductions were
# measured at 2-11x its error (sums of 4096 to 1e6 terms, cancelling or not; tests/error_model).
F32_MULTIPLE = 16.0
# Compiled sums keep at least this many partial sums (SSE's 4 floats a vector; wider vectors
# and interleaving keep more, and are more accurate): a 1e6-term sum that cancels was off by
# 350x an f32 evaluation's error on an SSE-only target, 20x with AVX-512's 16 lanes.
NARROWEST_LANES = 4
# plus this many ulps of the output's scale, times 1 + log2(longest sum in the module): the
# rounding of a sum grows with its length, and the evaluator's own order may have been lucky.
ULP_SLACK = 8
# Fixed error relative to the output's scale where there is no f64 yardstick (about the old
# per-dtype tolerances, but relative to the output's scale instead of absolute).
FIXED_TOLERANCE = {"float64": 1e-9, "float32": 3e-5, "float16": 2e-2, "bfloat16": 5e-2}


@dataclass(frozen=True)
class OutputReference:
    """One output as the evaluator computes it: at the program's precision, and in f64
    (`wide`, None with the reason in `why_narrow` when there is no meaningful one)."""

    program: np.ndarray
    wide: np.ndarray | None = None
    why_narrow: str = ""
    decisions: tuple[str, ...] = ()  # instructions that may decide differently in f64
    longest_sum: int = 1  # the most terms any reduce, dot or window sums in the module

    def f32_error(self) -> float:
        """max |program - wide| over the elements finite in both (0 without a wide one)."""
        if self.wide is None:
            return 0.0
        return _max_abs_difference(self.program, self.wide)


@dataclass(frozen=True)
class OutputVerdict:
    """How one output compares: the error, the scale it is measured against, what is allowed
    and why (`basis`), and where the worst element is."""

    index: int
    label: str
    ok: bool
    error: float = 0.0  # max |ours - reference|, absolute
    scale: float = 0.0
    allowed: float = 0.0  # absolute
    f32_error: float | None = None  # what an f32 evaluation is off by; None without f64
    basis: str = ""  # "f64", "exact", or why it is judged against the f32 evaluation
    where: tuple[int, ...] = ()
    got: float | None = None
    want: float | None = None
    problem: str = ""  # a shape, NaN or integer mismatch, said in words
    longest_sum: int = 1

    @property
    def relative(self) -> float:
        """The error as a fraction of the output's scale."""
        return self.error / self.scale if self.scale else self.error

    @property
    def severity(self) -> float:
        """error / allowed: above 1 it differs; the worst output has the largest."""
        if self.problem:
            return float("inf")
        return self.error / self.allowed if self.allowed else (0.0 if self.error == 0 else float("inf"))

    def name(self) -> str:
        return f"output {self.index}" + (f" ({self.label})" if self.label else "")

    def slack_words(self) -> str:
        grown = f" x (1 + log2 of {self.longest_sum} terms)" if self.longest_sum > 1 else ""
        return f"{ULP_SLACK} ulps{grown}"

    def bound_words(self) -> str:
        """Why `allowed` is what it is, in words."""
        if self.basis == "exact":
            return "integers must match exactly"
        rel = self.allowed / self.scale if self.scale else self.allowed
        if self.basis == "f64":
            return (f"allowed {rel:.2g}: {F32_MULTIPLE * growth(self.longest_sum):.3g}x what an f32 evaluation is off by "
                    f"({(self.f32_error or 0) / (self.scale or 1):.2g}) plus {self.slack_words()}")
        return f"allowed {rel:.2g} of its scale, a fixed tolerance ({self.basis})"


def evaluator_references(module, inputs, program_outputs: list[np.ndarray]) -> list[OutputReference]:
    """The evaluator's outputs (already computed) next to the module evaluated in f64."""
    try:
        wide = _flat(evaluate_widened(module, *inputs))
    except Exception as e:  # noqa: BLE001 - without a yardstick the f32 evaluation still judges, and says why
        return [OutputReference(p, None, f"no f64 reference: {e}") for p in program_outputs]
    decisions, terms = tuple(rounding_decisions(module)), longest_sum(module)
    return [OutputReference(p, w if p.dtype.kind not in "biu" else None, "", decisions, terms)
            for p, w in zip(program_outputs, wide)]


def longest_sum(module) -> int:
    """The most terms one reduce, dot or reduce-window in the module adds up."""
    most = 1
    for comp, inst in module.all_instructions():
        if not inst.operands:
            continue
        dims = getattr(comp.operands_of(inst)[0].shape, "dims", ())
        if inst.opcode == "reduce":
            most = max(most, _product(dims[d] for d in inst.attr("dimensions", ())))
        elif inst.opcode == "dot":
            most = max(most, _product(dims[d] for d in inst.attr("lhs_contracting_dims", ())))
        elif inst.opcode == "reduce-window" and inst.attr("window") is not None:
            most = max(most, _product(getattr(w, "size", 1) for w in inst.attr("window")))
    return most


def growth(terms: int) -> float:
    """How much more rounding a compiled sum of `terms` terms may carry than numpy's pairwise
    one (see the module docstring)."""
    return max(1.0, float(np.sqrt(terms / (NARROWEST_LANES * np.log2(terms))))) if terms > 1 else 1.0


def _product(values) -> int:
    out = 1
    for v in values:
        out *= int(v)
    return out


def judge_output(index: int, label: str, ours: np.ndarray, expected: np.ndarray, ref: OutputReference,
                 against_evaluator: bool) -> OutputVerdict:
    """Does hloscope's output `ours` agree with `expected` (the evaluator's, or another
    implementation's), allowing what the error model of `ref` allows?"""
    if ours.shape != expected.shape:
        return OutputVerdict(index, label, False, problem=f"shape {list(expected.shape)} vs hloscope's {list(ours.shape)}")
    if ours.dtype.kind in "biu" or expected.dtype.kind in "biu":
        return _judge_exact(index, label, ours, expected)
    ours64, exp64 = ours.astype(np.float64), expected.astype(np.float64)
    bad = _special_mismatch(ours64, exp64)
    if bad is not None:
        return OutputVerdict(index, label, False, where=bad, got=float(ours64[bad]), want=float(exp64[bad]),
                             problem="NaN or infinity where the reference has another value")
    fixed = FIXED_TOLERANCE.get(np.dtype(ours.dtype).name, FIXED_TOLERANCE["float32"])
    target, basis, f32_error = exp64, ref.why_narrow or "no f64 reference", None
    if ref.wide is not None:
        wide_scale = _scale(ref.wide, ours.dtype)
        if ref.f32_error() <= fixed * wide_scale or not ref.decisions:
            basis, f32_error = "f64", ref.f32_error()
            target = ref.wide.astype(np.float64) if against_evaluator else exp64
        else:
            basis = (f"the f64 evaluation is {ref.f32_error() / wide_scale:.2g} of its scale from the f32 one: "
                     f"{ref.decisions[0]} may have decided differently")
    scale = _scale(target, ours.dtype)
    slack = ULP_SLACK * (1 + np.log2(ref.longest_sum)) * _eps(ours.dtype) * scale
    allowed = F32_MULTIPLE * growth(ref.longest_sum) * f32_error + slack if f32_error is not None else fixed * scale
    error, where = _worst(ours64, target)
    return OutputVerdict(index, label, error <= allowed, error, scale, allowed, f32_error, basis, where,
                         float(ours64[where]) if ours64.size else None, float(target[where]) if ours64.size else None,
                         longest_sum=ref.longest_sum)


def _judge_exact(index: int, label: str, ours: np.ndarray, expected: np.ndarray) -> OutputVerdict:
    differs = np.argwhere(ours != expected)
    if not len(differs):
        return OutputVerdict(index, label, True, basis="exact")
    at = tuple(int(i) for i in differs[0])
    return OutputVerdict(index, label, False, basis="exact", where=at, got=float(ours[at]), want=float(expected[at]),
                         problem=f"{len(differs)} of {ours.size} elements differ")


def _special_mismatch(ours: np.ndarray, expected: np.ndarray) -> tuple[int, ...] | None:
    """The first element where NaN or +-inf in one is not the same in the other."""
    special = ~np.isfinite(ours) | ~np.isfinite(expected)
    same = (np.isnan(ours) & np.isnan(expected)) | (ours == expected)
    bad = np.argwhere(special & ~same)
    return tuple(int(i) for i in bad[0]) if len(bad) else None


def _worst(ours: np.ndarray, target: np.ndarray) -> tuple[float, tuple[int, ...]]:
    with np.errstate(invalid="ignore"):  # inf - inf where both are infinite: not counted
        diff = np.abs(ours - target)
    diff = np.where(np.isfinite(ours) & np.isfinite(target), diff, 0.0)
    if not diff.size:
        return 0.0, ()
    at = np.unravel_index(int(np.argmax(diff)), diff.shape)
    return float(diff[at]), tuple(int(i) for i in at)


def _max_abs_difference(a: np.ndarray, b: np.ndarray) -> float:
    return _worst(np.asarray(a, np.float64), np.asarray(b, np.float64))[0]


def _scale(values: np.ndarray, dtype) -> float:
    """max |value| over the finite elements; the smallest normal number when all are zero."""
    v = np.abs(np.asarray(values, np.float64))
    v = v[np.isfinite(v)]
    top = float(v.max()) if v.size else 0.0
    return top if top > 0 else float(_finfo(dtype).tiny)


def _eps(dtype) -> float:
    return float(_finfo(dtype).eps)


def _finfo(dtype):
    """The float type's finfo (bf16's too); f32's for other types."""
    return finfo(dtype if np.dtype(dtype).kind == "f" or np.dtype(dtype).name == "bfloat16" else np.float32)


def _flat(value) -> list[np.ndarray]:
    if isinstance(value, tuple):
        return [a for v in value for a in _flat(v)]
    return [np.asarray(value)]
