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


class MissingInputError(HloscopeError):
    """The input lacks what a stage needs (a constant's values left out of the text): not a
    failure of the compiler. An explorer shows the stage skipped with this message; a
    compile that must finish raises it."""


class ElidedValuesError(MissingInputError, NotSupportedError):
    """A constant printed as `{...}`: XLA left its values out of the text, so nothing that
    reads them (evaluating, running, compiling) can know them."""

    def __init__(self, constant: str, shape: str, needed_by: str):
        self.constant = constant
        super().__init__(
            f"constant {constant} ({shape}) has no values: the text shows {{...}}, as XLA prints the large "
            f"constants of a compiled program (compile().as_text()). {needed_by} needs them; reading, verifying, "
            "the passes, the graphs and the memory plan do not. To keep them, print the program before XLA "
            "compiles it (jax.jit(f).lower(*args).as_text()), or dump it with "
            'XLA_FLAGS="--xla_dump_to=DIR --xla_dump_hlo_as_text --xla_dump_large_constants".')
