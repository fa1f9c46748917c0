"""The errors hloscope raises on bad input. Each says what is wrong and where."""

from __future__ import annotations


class HloscopeError(Exception):
    """Base class for every error hloscope raises on purpose."""


class HloParseError(HloscopeError, ValueError):
    """Malformed HLO text: the message gives line and column, the line, and a caret."""

    def __init__(self, message: str, line: int, column: int, source_line: str):
        self.message = message
        self.line = line
        self.column = column
        self.source_line = source_line
        shown = source_line if len(source_line) <= 200 else _window(source_line, column)
        caret_col = column if len(source_line) <= 200 else min(column, 60)
        super().__init__(
            f"line {line}, column {column}: {message}\n  {shown}\n  {' ' * (caret_col - 1)}^"
        )


def _window(line: str, column: int) -> str:
    start = max(0, column - 60)
    return ("..." if start else "") + line[start : start + 160] + "..."


class HloVerifierError(HloscopeError, ValueError):
    """A module whose shapes, operands or references are inconsistent."""

    def __init__(self, message: str, computation: str | None = None, instruction: str | None = None):
        self.computation = computation
        self.instruction = instruction
        where = ""
        if computation:
            where = f"in computation {computation}"
            if instruction:
                where += f", instruction {instruction}"
            where += ": "
        super().__init__(where + message)


class NotSupportedError(HloscopeError, NotImplementedError):
    """An operation hloscope knows but cannot run on this path: `not supported: <opcode>`."""


class EvaluationError(HloscopeError, ValueError):
    """Wrong arguments to `evaluate` or an executable (count, shape or dtype)."""


class UnsupportedError(HloscopeError, NotImplementedError):
    """A numpy function or Python construct that `hloscope.jit` cannot trace."""
