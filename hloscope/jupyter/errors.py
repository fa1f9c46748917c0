"""Errors in a `%%hlo` cell, shown as a short message instead of a traceback.

IPython asks an exception for `_render_traceback_()` before formatting a traceback; a
`CellError` answers with a few lines: what went wrong and where in the user's cell or code.
The cell still counts as failed (so "Run all" stops there), but the user sees

    HloParseError in the cell, line 3, column 14: expected an opcode
      %a = f32[2]{0} ad(%x, %y)
                     ^

and not forty lines of hloscope's internals. `--debug` shows the real traceback instead.
"""

from __future__ import annotations

from ..errors import HloParseError, HloscopeError

RED, BOLD, RESET = "\x1b[31m", "\x1b[1m", "\x1b[0m"


class CellError(Exception):
    """Wraps the real error (`.error`) with the short text to show (`.text`)."""

    def __init__(self, error: BaseException, text: str):
        super().__init__(text)
        self.error = error
        self.text = text

    def _render_traceback_(self) -> list[str]:
        head, _, rest = self.text.partition("\n")
        lines = [f"{RED}{BOLD}{head}{RESET}"]
        return lines + (rest.split("\n") if rest else [])


def describe(error: BaseException, where: str = "") -> str:
    """The short message for `error`; `where` says which part of the cell it came from."""
    name = type(error).__name__
    if isinstance(error, HloParseError):  # the cell's line 1 is the %%hlo line
        shown = str(error).split("\n", 1)[1] if "\n" in str(error) else ""
        return f"{name} at line {error.line + 1} of the cell, column {error.column}: {error.message}\n{shown}"
    text = f"{name}{' ' + where if where else ''}: {str(error).strip() or repr(error)}"
    if isinstance(error, HloscopeError):
        return text  # hloscope's own errors already say where (the user's line, the instruction)
    line = user_line(error)
    return text + (f"\n{line}" if line else "") + (
        "\n(add --debug to the %%hlo line to see the full traceback)")


def user_line(error: BaseException) -> str:
    """`  at cell.py:3 in f\n    y = x @ w`: the innermost frame of the traceback that is the
    user's code (not hloscope's, numpy's or the standard library's), or ""."""
    import traceback

    from ..frontend.source import _internal

    frames = [f for f in traceback.extract_tb(error.__traceback__) if not _internal(f.filename)
              and "/lib/python" not in f.filename and "IPython" not in f.filename]
    if not frames:
        return ""
    f = frames[-1]
    return f"  at {f.filename}:{f.lineno} in {f.name}" + (f"\n    {f.line.strip()}" if f.line else "")


def cell_error(error: BaseException, where: str = "") -> CellError:
    return CellError(error, describe(error, where))


def user_code_error(error: BaseException, cell: str, filename: str) -> CellError:
    """An error raised by the cell's own Python code: the error and the line of the cell."""
    import traceback

    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == filename]
    text = f"{type(error).__name__} in the cell: {error}"
    line = frames[-1].lineno if frames else None  # None too when the code object has no line table
    if line is not None:  # the compiled code starts with a blank line for the %%hlo line
        lines = ["%%hlo"] + cell.split("\n")
        source = lines[line - 1] if 0 < line <= len(lines) else ""
        text += f"\n  line {line}: {source.strip()}"
    return CellError(error, text)
