"""Errors raised while tracing. Each names the operation, the shapes involved and the
user's line (file:line and its text).

    ShapeError          shapes that do not fit (matmul, reshape, broadcasting): also a ValueError
    ConcretizationError a traced value used where Python needs a real one (`if x > 0:`)
    UnsupportedError    (from hloscope.errors) a numpy function the tracer has no rule for
"""

from __future__ import annotations

from ..errors import HloscopeError, UnsupportedError
from .source import SourceInfo, located, user_frame

__all__ = ["ConcretizationError", "ShapeError", "TracerLeakError", "UnsupportedError",
           "shape_error", "unsupported"]


class ShapeError(HloscopeError, ValueError):
    """Operand shapes that the operation cannot combine, found at trace time."""


class ConcretizationError(UnsupportedError, TypeError):
    """A traced value was asked for a concrete Python value (bool, int, float, numpy array)."""


class TracerLeakError(HloscopeError, RuntimeError):
    """A traced value was used after the trace that made it had finished."""


def shape_error(message: str, source: SourceInfo | None = None) -> ShapeError:
    """A ShapeError carrying the user's line (pass `raise shape_error(...)`)."""
    return ShapeError(located(message, source or user_frame(2)))


def unsupported(what: str, hint: str = "", source: SourceInfo | None = None) -> UnsupportedError:
    """`<what> is not supported by hloscope.jit`, with an optional hint and the user's line."""
    message = f"{what} is not supported by hloscope.jit" + (f"; {hint}" if hint else "")
    return UnsupportedError(located(message, source or user_frame(2)))
