"""Checking the caller's arguments against a computation's parameters.

Arguments are converted with `np.asarray` (so Python scalars and lists work) and must then
match the parameter exactly: same count, dims and dtype. Nothing is cast silently: a float64
array passed for an f32 parameter is an error that names the parameter and both shapes.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from ..errors import EvaluationError
from ..ir.computation import Computation
from ..ir.dtypes import from_numpy
from ..ir.shape import ArrayShape, Shape, TupleShape


def check_arguments(comp: Computation, args: Sequence) -> list:
    """The arguments as evaluator values, one per parameter of `comp`, or EvaluationError."""
    params = comp.parameters
    if len(args) != len(params):
        raise EvaluationError(f"expected {len(params)} arguments, got {len(args)}")
    return [_argument(i, p.name, p.shape, a) for i, (p, a) in enumerate(zip(params, args))]


def _argument(i: int, name: str, shape: Shape, arg):
    value = _as_value(shape, arg)
    if not _matches(shape, value):
        raise EvaluationError(
            f"argument {i} (parameter '{name}'): expected {_spell(shape)}, got {_describe(shape, value)}"
        )
    return value


def _as_value(shape: Shape, arg):
    """Tuples stay tuples (for tuple-shaped parameters); everything else becomes an array."""
    if isinstance(shape, TupleShape) and isinstance(arg, (tuple, list)):
        if len(arg) == len(shape.elements):
            return tuple(_as_value(s, a) for s, a in zip(shape.elements, arg))
        return tuple(arg)
    if isinstance(arg, tuple):
        return arg
    return np.asarray(arg)


def _matches(shape: Shape, value) -> bool:
    if isinstance(shape, TupleShape):
        return (
            isinstance(value, tuple)
            and len(value) == len(shape.elements)
            and all(_matches(s, v) for s, v in zip(shape.elements, value))
        )
    if isinstance(shape, ArrayShape):
        return (
            isinstance(value, np.ndarray)
            and value.dtype == shape.numpy_dtype
            and value.shape == shape.dims
        )
    return False


def _spell(shape: Shape) -> str:
    return shape.short() if isinstance(shape, ArrayShape) else str(shape)


def _describe(expected: Shape | None, value) -> str:
    """The argument in HLO spelling (`f32[64,256]`); a wrong dtype by its numpy name (`float64[3]`)."""
    if isinstance(value, tuple):
        return "(" + ", ".join(_describe(None, v) for v in value) + ")"
    if not isinstance(value, np.ndarray):
        return type(value).__name__
    dims = "[" + ",".join(map(str, value.shape)) + "]"
    same_dtype = isinstance(expected, ArrayShape) and value.dtype == expected.numpy_dtype
    if same_dtype:
        return from_numpy(value.dtype).name + dims
    return f"{value.dtype}{dims}"
