"""`hloscope.numpy`: the explicit numpy namespace for traced code (`import hloscope.numpy as hnp`).

Inside `hloscope.jit`, plain `numpy` already works on traced arrays through numpy's dispatch
protocols (`__array_ufunc__`, `__array_function__`). This namespace is for the cases numpy
cannot dispatch, because no argument is an array: `hnp.zeros((3, 4))`, `hnp.arange(n)`,
`hnp.eye(n)` become HLO (`broadcast`, `iota`) rather than numpy constants, and
`hnp.asarray(x)` accepts a traced array. It also adds `erf` and `sigmoid`, which numpy lacks.
Outside a trace every function here is numpy's own (erf and sigmoid computed with numpy), so
the same code runs eagerly on numpy arrays.

Semantics follow numpy 2, including its type promotion (NEP 50): float64 stays float64, and
Python scalars are weak (`f32 array + 2.0` is f32, `int32 array / 2` is f64). Where a traced
program differs from numpy (see docs/tracing.md):

- integer indices that are traced and out of bounds are clamped (HLO's rule), not an IndexError;
- integer division or remainder by zero follows XLA's integer rules, not numpy's 0;
- float to integer conversion out of range saturates (XLA's convert) rather than wrapping;
- full reductions return 0-d arrays, not numpy scalars;
- sums may round differently (reduction order), within float tolerance;
- shapes must be known when tracing: boolean-mask indexing with a traced mask, `np.nonzero`,
  `np.unique` and one-argument `np.where` are not supported;
- arrays are immutable: no `x[i] = v` and no `out=`.
"""

from __future__ import annotations

import builtins
import functools
import math

import numpy as np

from .frontend.pytree import flatten
from .frontend.registry import apply, tracing
from .frontend.rules.common import as_tracer
from .frontend.tracer import Tracer

_FUNCTIONS = """
abs absolute add all amax amin any arange arccos arcsin arctan arctan2 argmax argmin around
astype atleast_1d atleast_2d bitwise_and bitwise_or bitwise_xor broadcast_to cbrt ceil clip
concat concatenate copy cos cosh cumprod cumsum divide divmod dot einsum empty empty_like
equal exp exp2 expand_dims expm1 eye fabs flip fliplr flipud floor floor_divide fmod full
full_like greater greater_equal hstack identity inner invert isfinite isinf isnan left_shift
less less_equal linspace log log10 log1p log2 logical_and logical_not logical_or logical_xor
matmul matrix_transpose max maximum mean min minimum mod moveaxis multiply negative
not_equal ones ones_like outer pad permute_dims positive power prod ravel reciprocal
remainder repeat reshape right_shift rint round sign sin sinh split sqrt square squeeze
stack std subtract sum swapaxes take tan tanh tensordot tile transpose tri tril triu
true_divide trunc var vdot vstack where zeros zeros_like shape ndim size
""".split()


def _wrap(func, key=None, name=None):
    """numpy's `func` outside a trace; the lowering rule for `key` (default: func) inside."""
    rule_key = key if key is not None else func
    name = name or getattr(func, "__name__", None)

    @functools.wraps(func)
    def dispatch(*args, **kwargs):
        if tracing():
            return apply(rule_key, args, kwargs, name=name)
        return func(*args, **kwargs)

    return dispatch


# Defined here by name; note that they shadow the builtins any, all, abs, max, min, round, sum
# in this module (use `builtins.` below).
globals().update({_name: _wrap(getattr(np, _name)) for _name in _FUNCTIONS})


def _erf_numpy(x):
    try:  # scipy is optional: imported on first use, with a pure-numpy fallback
        from scipy.special import erf as scipy_erf

        return scipy_erf(x)
    except ImportError:
        x = np.asarray(x)
        dtype = x.dtype if x.dtype.kind == "f" else np.float64
        return np.vectorize(math.erf, otypes=[np.float64])(x).astype(dtype)


def _sigmoid_numpy(x):
    x = np.asarray(x)
    return 1 / (1 + np.exp(-x))


erf = _wrap(_erf_numpy, "ufunc:erf", "erf")
erf.__doc__ = "The error function (HLO `erf`); scipy.special.erf is traced the same way."
sigmoid = _wrap(_sigmoid_numpy, "ufunc:expit", "sigmoid")
sigmoid.__doc__ = "1 / (1 + exp(-x)) (HLO `logistic`); scipy.special.expit is traced the same way."


def asarray(a, dtype=None, **kwargs):
    """A traced array stays itself (converted to `dtype` if given); a list holding traced
    arrays is stacked; anything else is numpy's."""
    if not tracing():
        return np.asarray(a, dtype=dtype, **kwargs)
    if isinstance(a, (list, tuple)) and builtins.any(isinstance(x, Tracer) for x in flatten(a)[0]):
        return np.stack([asarray(x, dtype) for x in a])  # tracers: numpy dispatches to the stack rule
    return as_tracer(np.asarray(a) if isinstance(a, (list, tuple)) else a, dtype)


array = asarray

# Types and constants, so `hnp.float32`, `hnp.pi`, `hnp.newaxis` work as with numpy.
bool_, int8, int16, int32, int64 = np.bool_, np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
float16, float32, float64 = np.float16, np.float32, np.float64
pi, e, inf, nan, newaxis, ndarray, dtype = np.pi, np.e, np.inf, np.nan, np.newaxis, np.ndarray, np.dtype

__all__ = [*_FUNCTIONS, "array", "asarray", "erf", "sigmoid", "bool_", "int8", "int16", "int32",
           "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64", "pi",
           "e", "inf", "nan", "newaxis", "ndarray", "dtype"]
