"""Pass records as HTML: one record in detail, and the table of all pass runs."""

from __future__ import annotations

import pytest
from viz_helpers import corpus_module

from hloscope import optimize
from hloscope.viz.records_html import pass_record_html, records_table_html


@pytest.fixture(scope="module")
def result():
    return optimize(corpus_module("softmax"))


def test_pass_record_html_shows_everything_about_a_pass(result):
    fusion = result.record("fusion")
    out = pass_record_html(fusion)
    assert "default/fusion" in out and "changed" in out and "ms" in out
    assert "<style>" in out and "http" not in out
    assert out.count("<tr class='accepted'") == len(fusion.log) - len([d for d in fusion.log if not d.accepted])
    assert out.count("<tr class='rejected'") == len([d for d in fusion.log if not d.accepted])
    assert "(rejected)" in out
    assert 'class="hloscope-hlo hs-diff"' in out and '<span class="da">' in out
    assert fusion._repr_html_() == out


def test_an_unchanged_pass_has_no_diff(result):
    record = next(r for r in result.records if not r.changed)
    out = pass_record_html(record)
    assert "no change" in out and "hs-diff" not in out and "no decisions logged" in out


def test_records_table_marks_changed_passes(result):
    out = records_table_html(result.records)
    assert out.count("<tr class='changed'") == len(result.changed_records)
    assert out.count("<tr class='unchanged'") == len(result.records) - len(result.changed_records)
    assert f"{len(result.records)} pass runs, {len(result.changed_records)} changed" in out
    for r in result.records:
        assert f"<td>{r.name}</td>" in out
