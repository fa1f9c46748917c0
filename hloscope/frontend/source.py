"""Where in the user's program an operation was written: the first stack frame outside
hloscope (and outside numpy, whose dispatch functions may sit in between).

The location goes into every HLO instruction's metadata (`source_file`, `source_line`), into
the trace listing, and into every error message, so a learner can always get back from HLO or
from an error to the line that caused it.
"""

from __future__ import annotations

import contextlib
import linecache
import os
import sys
import threading
from dataclasses import dataclass
from typing import Iterator

import numpy as np

_HLOSCOPE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# numpy's Python-level dispatchers and contextlib (operations are context managers) sit between
# the user's line and ours; neither is where the user wrote anything.
_SKIPPED = (_HLOSCOPE_DIR + os.sep, os.path.dirname(np.__file__) + os.sep, contextlib.__file__)
# The course's example model is code for the reader: its lines are the user's lines (the
# per-line cost table and error messages point into it, not at the notebook cell calling it).
_READER_CODE = tuple(os.path.join(_HLOSCOPE_DIR, "teaching", name) for name in ("running_example.py", "asking_why.py"))


@dataclass(frozen=True)
class SourceInfo:
    """A line of user code: file, line number, function name and the line's text."""

    file: str
    line: int
    function: str
    text: str

    @property
    def short_file(self) -> str:
        return os.path.basename(self.file)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"

    def describe(self) -> str:
        """`  at path/to/file.py:12 in f\\n    y = x @ w`: the form error messages use."""
        where = f"  at {self.file}:{self.line}" + (f" in {self.function}" if self.function else "")
        return where + (f"\n    {self.text}" if self.text else "")


def _internal(filename: str) -> bool:
    known = _INTERNAL.get(filename)
    if known is None:  # remembered: a lazy tensor asks for every operation it records
        path = os.path.abspath(filename)
        known = _INTERNAL[filename] = (not filename.startswith("<") and path.startswith(_SKIPPED)
                                       and path not in _READER_CODE)
    return known


_INTERNAL: dict[str, bool] = {}


_replaying = threading.local()


@contextlib.contextmanager
def written_at(source: SourceInfo | None) -> Iterator[None]:
    """Operations traced inside take `source` as their user line: a lazy step replays calls
    recorded earlier, and their metadata and errors should name where they were written."""
    saved = getattr(_replaying, "source", None)
    _replaying.source = source
    try:
        yield
    finally:
        _replaying.source = saved


def user_frame(skip: int = 1) -> SourceInfo | None:
    """The innermost caller frame that is not hloscope's or numpy's code (None if all are)."""
    replayed = getattr(_replaying, "source", None)
    if replayed is not None:
        return replayed
    frame = sys._getframe(skip)
    while frame is not None and _internal(frame.f_code.co_filename):
        frame = frame.f_back
    if frame is None:
        return None
    return frame_info(frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name)


def frame_info(filename: str, line: int, function: str) -> SourceInfo:
    text = linecache.getline(filename, line).strip()
    return SourceInfo(filename, line, function, text)


def definition_of(fn) -> SourceInfo | None:
    """Where `fn` is defined (its `def` line), for instructions that belong to no single line."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return None
    return frame_info(code.co_filename, code.co_firstlineno, code.co_name)


def located(message: str, source: SourceInfo | None = None) -> str:
    """`message` followed by the user's line (found now unless given)."""
    source = source or user_frame(2)
    return message if source is None else f"{message}\n{source.describe()}"
