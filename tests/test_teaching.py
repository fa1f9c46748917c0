"""The course notebooks' helpers: checks pass right answers, fail wrong ones with the hint."""

from __future__ import annotations

import numpy as np
import pytest

from hloscope.teaching import CheckFailed, best_time, check, pre, repo_path, side_by_side


def test_a_right_answer_prints_a_tick(capsys):
    assert check("two plus two", 2 + 2, 4) is None
    assert capsys.readouterr().out == "\u2713 two plus two\n"


def test_a_wrong_answer_raises_with_both_values_and_the_hint():
    with pytest.raises(CheckFailed) as e:
        check("two plus two", 5, 4, hint="count again")
    assert str(e.value) == "two plus two: got 5, expected 4. Hint: count again"
    assert isinstance(e.value, AssertionError)  # a plain `except AssertionError` catches it


def test_a_condition_without_expected_value():
    check("it is true", 3 > 2)
    with pytest.raises(CheckFailed, match=r"^it is false\. Hint: h$"):
        check("it is false", [], hint="h")


def test_arrays_and_floats_compare_within_tolerance():
    x = np.linspace(0, 1, 5, dtype=np.float32)
    check("close", x + 1e-7, x)
    check("float", 0.1 + 0.2, 0.3)
    with pytest.raises(CheckFailed):
        check("far", x + 1e-2, x)
    with pytest.raises(CheckFailed):
        check("shape", x[:4], x)  # a different shape is wrong, not broadcast
    with pytest.raises(CheckFailed):
        check("ints exactly", np.array([1, 2]), np.array([1, 3]))
    with pytest.raises(CheckFailed):
        check("not an array", "abc", 1.0)


def test_wrong_arrays_are_described_not_printed():
    want = np.zeros((4, 5))
    got = want.copy()
    got[1, 2] = 3.0
    with pytest.raises(CheckFailed, match=r": 1 of 20 elements differ \(the largest difference is 3\)\.$"):
        check("one element", got, want)
    with pytest.raises(CheckFailed, match=r"got an array of shape \(5, 4\), expected shape \(4, 5\)"):
        check("transposed", want.T, want)
    with pytest.raises(CheckFailed, match=r"got 'an error', expected array"):
        check("not computed", "an error", want)


def test_plain_values_compare_with_equality():
    check("tuple", (0,), (0,))
    check("set", {"a", "b"}, {"b", "a"})
    with pytest.raises(CheckFailed):
        check("tuple", (1,), (0,))


def test_long_values_are_shortened_in_the_message():
    with pytest.raises(CheckFailed) as e:
        check("long", "x" * 500, "y")
    assert len(str(e.value)) < 400


def test_ipython_shows_one_line_instead_of_a_traceback():
    error = CheckFailed("wrong. Hint: h")
    assert error._render_traceback_() == ["\u2717 wrong. Hint: h"]


def test_repo_path_finds_the_corpus_from_a_subfolder(monkeypatch):
    root = repo_path()
    monkeypatch.chdir(root / "tests")
    assert repo_path("tests", "corpus") == root / "tests" / "corpus"
    assert (repo_path("tests", "corpus") / "softmax.hlo").exists()


def test_repo_path_outside_the_repository(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(FileNotFoundError):
        repo_path()


def test_best_time_is_the_fastest_call():
    calls = []
    seconds = best_time(lambda: calls.append(1), repeat=3, number=4)
    assert len(calls) == 1 + 3 * 4  # one warm-up, then repeat x number
    assert 0 < seconds < 0.01


def test_side_by_side_and_pre_make_html():
    page = side_by_side({"before": "<b>a</b>"}, after=pre("x < y\n" * 100, max_lines=3))._repr_html_()
    assert page.index("before") < page.index("after")
    assert "<b>a</b>" in page and "x &lt; y" in page and "97 more lines" in page
