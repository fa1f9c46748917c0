"""Exercises that can be failed: an answer starts as `...`, and its check says one of three
things, on one line:

    … name: not answered yet          (the answer is still `...`)
    ✓ name                            (the answer behaves right)
    ✗ name: what is wrong. Hint: ...  (never the expected value itself)

    from hloscope.teaching.exercises import exercise, Wrong

    def rule(answer):                  # judges behaviour: values, shapes, bytes
        if answer.shape != (4,):
            raise Wrong("one number per row is expected")
        return np.allclose(answer, want)   # True/None: right; False: wrong; a str: what is wrong

    exercise("row sums", my_answer, rule, hint="each row is summed along axis 1")

An answer that is a function starts as `def f(x): return ...`; its rule calls
`still_unanswered(f(x))`, which says `not answered yet` for it. A learner's own code that
raises inside the rule (a broken pass, a function with a typo) is a ✗ line naming the
exception, not a traceback. `judge` returns the verdict without printing, for the tests.
Checks that are demonstrations rather than exercises use `hloscope.teaching.check`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Literal

import numpy as np

NOT_ANSWERED = "not answered yet"

Rule = Callable[[Any], "bool | str | None"]


class Wrong(Exception):
    """Raised by a rule to say what is wrong with an answer (without giving the answer)."""


class Unanswered(Exception):
    """Raised by a rule that finds the answer still a placeholder: a function whose body
    returns `...` (see `still_unanswered`)."""


def still_unanswered(result: Any) -> Any:
    """`result` (what a learner's function returned), or Unanswered when it is `...`."""
    if result is Ellipsis:
        raise Unanswered
    return result


@dataclass(frozen=True)
class Grade:
    status: Literal["unanswered", "right", "wrong"]
    line: str

    def __str__(self) -> str:
        return self.line


def unanswered(answer: Any) -> bool:
    """Whether `answer` is still `...`, or a tuple, list, set or dict holding a `...`."""
    if answer is Ellipsis:
        return True
    if isinstance(answer, dict):
        return any(v is Ellipsis or k is Ellipsis for k, v in answer.items())
    if isinstance(answer, (tuple, list, set, frozenset)):
        return any(v is Ellipsis for v in answer)
    return False


def _reason(error: BaseException) -> str:
    """A learner's exception as one line: its type and the first line of its message."""
    message = str(error).strip().splitlines()[0] if str(error).strip() else ""
    if isinstance(error, KeyError):
        message = f"no instruction or entry named {message}"
    return f"your code raised {type(error).__name__}" + (f" ({message})" if message else "")


def judge(name: str, answer: Any, rule: Rule, hint: str = "") -> Grade:
    """The verdict on `answer` by `rule` (see the module's docstring), not printed."""
    if unanswered(answer):
        return Grade("unanswered", f"\u2026 {name}: {NOT_ANSWERED}")
    try:
        result = rule(answer)
    except Unanswered:
        return Grade("unanswered", f"\u2026 {name}: {NOT_ANSWERED}")
    except Wrong as e:
        result = str(e)
    except Exception as e:  # a learner's broken function or pass: say what broke, no traceback
        result = _reason(e)
    if result is None or result is True:
        return Grade("right", f"\u2713 {name}")
    what = "not right" if result is False else str(result).rstrip()
    stop = "" if what.endswith((".", "?", "!")) else "."
    return Grade("wrong", f"\u2717 {name}: {what}{stop}" + (f" Hint: {hint}" if hint else ""))


def exercise(name: str, answer: Any, rule: Rule, hint: str = "") -> None:
    """Print the verdict's line (see `judge`). Returns None, so a check as a cell's last line
    shows only its line."""
    print(judge(name, answer, rule, hint).line)


def _a(noun: str) -> str:
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


# --- rules for common kinds of answers ---------------------------------------------------------

def equal_to(expected: Any) -> Callable[[Any], bool | str]:
    """Right when the answer equals `expected` (a plain value: number, string, set, tuple...).
    A wrong number says whether it is too high or too low."""

    def rule(answer: Any) -> bool | str:
        if answer == expected:
            return True
        if isinstance(answer, (int, float)) and isinstance(expected, (int, float)) \
                and not isinstance(answer, bool):
            return "too high" if answer > expected else "too low"
        if type(answer) is not type(expected) and not (isinstance(answer, (int, float))
                                                       and isinstance(expected, (int, float))):
            return f"the answer should be {_a(type(expected).__name__)}, not {_a(type(answer).__name__)}"
        return False

    return rule


def close_to(expected: np.ndarray, rtol: float = 1e-5, atol: float = 1e-6) -> Callable[[Any], bool | str]:
    """Right when the answer is an array of `expected`'s shape with values within rtol/atol.
    A wrong one is described by its shape or how many elements are off, never by the values."""
    want = np.asarray(expected)

    def rule(answer: Any) -> bool | str:
        try:
            got = np.asarray(answer)
        except (TypeError, ValueError):
            return f"the answer should be an array, not {_a(type(answer).__name__)}"
        if got.dtype.kind not in "biufc":
            return f"the answer should be an array of numbers, not {_a(type(answer).__name__)}"
        if got.shape != want.shape:
            return f"got an array of shape {got.shape}, which is not the shape of the result"
        off = ~np.isclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True)
        if off.any():
            return f"{int(off.sum())} of {off.size} values are not right"
        return True

    return rule


def check_counts(name: str, measured: dict[str, int], answer: Any, hint: str) -> None:
    """An exercise whose answer is a dict of counts with `measured`'s keys: each count is right,
    too high or too low (never the value itself)."""

    def rule(got: Any) -> bool:
        if not isinstance(got, dict) or set(got) != set(measured):
            raise Wrong(f"answer with a dict with the keys {', '.join(sorted(measured))}")
        off = {key: ("too high" if got[key] > count else "too low")
               for key, count in measured.items() if got[key] != count}
        if off:
            raise Wrong("; ".join(f"{key}: {how}" for key, how in sorted(off.items())))
        return True

    exercise(name, answer, rule, hint=hint)
