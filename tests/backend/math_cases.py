"""The transcendental functions' accuracy cases: each one's float64 reference, input range
and documented bound (backend/mathlib/approx.py), the inputs drawn for it, and the error in
ulps. Shared by tests/backend/test_math_accuracy.py and benchmarks/math_accuracy.py, which
measures the bounds on many more inputs, as every CPU of tests/hosts.py.

Each case draws from a generator of its own, seeded by its name, so its inputs do not depend
on which tests ran before it (or on which worker of a parallel run)."""

from __future__ import annotations

import zlib

import numpy as np
import scipy.special as sp

from backend_helpers import compile_text, module

NP = {"f32": np.float32, "f64": np.float64}


def logistic_ref(x):
    e = np.exp(-np.abs(x))
    return np.where(x < 0, e / (1 + e), 1 / (1 + e))


# opcode: (reference in float64, input range, (f32 max ulp, f64 max ulp)), the bounds of
# backend/mathlib/approx.py: the worst seen by benchmarks/math_accuracy.py on every CPU
UNARY = {
    "exponential": (np.exp, (-800, 800), (1, 2)),
    "log": (np.log, "positive", (1, 1)),
    "log-plus-one": (np.log1p, "log1p", (2.5, 2)),
    "exponential-minus-one": (np.expm1, (-800, 800), (1.5, 2)),
    "logistic": (logistic_ref, (-800, 800), (2.5, 3)),
    "tanh": (np.tanh, (-30, 30), (7, 2)),
    "sine": (np.sin, (-25000, 25000), (2.5, 2.5)),
    "cosine": (np.cos, (-25000, 25000), (2.5, 2.5)),
    "tan": (np.tan, (-25000, 25000), (4.5, 4.5)),
    "erf": (sp.erf, (-8, 8), (1, 3)),
    "cbrt": (np.cbrt, "positive", (1, 3.5)),
}
SPECIALS = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-40, 1e-310, 5e-324, 1.0, -1.0, 0.5,
            88.7, 89.0, -87.0, -103.0, -104.5, 709.7, 710.0, -745.0, 1e30, -1e30]


def case_rng(*name) -> np.random.Generator:
    """A generator seeded by the case's name (and a draw number)."""
    return np.random.default_rng(zlib.crc32(repr(name).encode()))


def wide(rng: np.random.Generator, n: int, lo: float = -300, hi: float = 300) -> np.ndarray:
    """Values of every magnitude from 10**lo to 10**hi, both signs."""
    return rng.uniform(-1, 1, n) * 10.0 ** rng.uniform(lo, hi, n)


def unary_inputs(op: str, dtype: str, n: int = 100_000, draw: int = 0) -> np.ndarray:
    """n inputs from op's range (a fifth as many more of every magnitude, where the range is
    narrow), then the special values."""
    rng, domain = case_rng(op, dtype, draw), UNARY[op][1]
    if domain == "positive":
        x = np.abs(wide(rng, n))
    elif domain == "log1p":
        x = np.concatenate([wide(rng, n // 2), rng.uniform(-1, 1, n - n // 2)])
    else:
        x = rng.uniform(domain[0], domain[1], n)
        if domain[1] < 1000:
            x = np.concatenate([x, wide(rng, n // 5)])
    if op in ("sine", "cosine", "tan"):
        x = x[~(np.abs(x) > 25000)]  # the documented range (inf and NaN stay in)
    with np.errstate(all="ignore"):  # huge values become inf in f32, on purpose
        return np.concatenate([x, SPECIALS]).astype(NP[dtype])


def ulp_error(got, ref, dtype):
    t = NP[dtype]
    with np.errstate(over="ignore"):  # an f64 reference beyond f32's range rounds to inf
        ref_t = ref.astype(t)
    same = (got == ref_t) | (np.isnan(got) & np.isnan(ref_t))
    spacing = np.maximum(np.spacing(np.abs(ref_t)).astype(np.float64), float(np.finfo(t).smallest_subnormal))
    with np.errstate(invalid="ignore"):
        err = np.abs(got.astype(np.float64) - ref) / spacing
    err[same] = 0
    err[np.isnan(err)] = np.inf
    return err


def run_unary(op, x, dtype):
    return compile_text(module(f"p = {dtype}[{x.size}] parameter(0)\nr = {dtype}[{x.size}] {op}(p)"), pipeline="none")(x)


def unary_errors(op: str, dtype: str, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(ulp errors, hloscope's results, references) of op over x."""
    with np.errstate(all="ignore"):
        ref = np.asarray(UNARY[op][0](x.astype(np.float64)), np.float64)
    got = run_unary(op, x, dtype)
    return ulp_error(got, ref, dtype), got, ref
