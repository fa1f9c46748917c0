"""The exercise framework (hloscope.teaching.exercises): three verdicts, one line each, and a
wrong answer's line never shows the right one."""

from __future__ import annotations

import numpy as np

from hloscope.teaching.exercises import Wrong, close_to, equal_to, exercise, judge, still_unanswered


def test_ellipsis_anywhere_in_the_answer_is_not_answered_yet():
    for answer in (..., (1, ...), [..., 2], {"a": ...}, {..., 3}):
        assert judge("q", answer, equal_to(1)).line == "\u2026 q: not answered yet"
    assert judge("f", lambda: ..., lambda f: still_unanswered(f())).status == "unanswered"


def test_right_and_wrong_numbers(capsys):
    exercise("count", 9, equal_to(9))
    exercise("count", 12, equal_to(9), hint="count the lines")
    assert capsys.readouterr().out.splitlines() == ["\u2713 count", "\u2717 count: too high. Hint: count the lines"]
    assert judge("count", "9", equal_to(9)).line == "\u2717 count: the answer should be an int, not a str."


def test_arrays_are_described_by_shape_or_how_many_values_are_off():
    want = np.arange(6.0).reshape(2, 3)
    assert judge("a", want.T, close_to(want)).line.startswith("\u2717 a: got an array of shape (3, 2)")
    off = want.copy()
    off[0, 1] = 100
    line = judge("a", off, close_to(want)).line
    assert line == "\u2717 a: 1 of 6 values are not right." and "1.0" not in line


def test_a_learners_exception_is_one_line_naming_it():
    def rule(f):
        return f(3) == 4

    verdict = judge("f", lambda x: x + undefined_name, rule)  # noqa: F821
    assert verdict.status == "wrong" and verdict.line.startswith("\u2717 f: your code raised NameError (name 'undefined_name'")
    assert "Traceback" not in verdict.line and "\n" not in verdict.line


def test_a_rule_says_what_is_wrong_with_wrong():
    def rule(answer):
        raise Wrong("the sign is off?")

    assert judge("s", -1, rule, hint="h").line == "\u2717 s: the sign is off? Hint: h"
