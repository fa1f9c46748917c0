"""graph_diff on hand-made before/after modules, and the highlighted text diff."""

from __future__ import annotations

import html
import re

import hloscope
from hloscope.viz.diff import graph_diff, text_diff_html

BEFORE = """HloModule m

ENTRY %main (p: f32[4]) -> f32[4] {
  %p = f32[4]{0} parameter(0)
  %c = f32[] constant(0)
  %b = f32[4]{0} broadcast(%c), dimensions={}
  %a = f32[4]{0} add(%p, %b)
  %e = f32[4]{0} exponential(%a)
  ROOT %m = f32[4]{0} multiply(%e, %p)
}
"""

AFTER = """HloModule m

%fused (x: f32[4], y: f32[4]) -> f32[4] {
  %x = f32[4]{0} parameter(0)
  %y = f32[4]{0} parameter(1)
  ROOT %m = f32[4]{0} multiply(%x, %y)
}

ENTRY %main (p: f32[4]) -> f32[4] {
  %p = f32[4]{0} parameter(0)
  %e = f32[4]{0} exponential(%p)
  ROOT %f = f32[4]{0} fusion(%e, %p), kind=kLoop, calls=%fused
}
"""


def test_graph_diff_per_computation_and_module_wide():
    d = graph_diff(hloscope.parse_hlo(BEFORE), hloscope.parse_hlo(AFTER))
    main = d.computations["main"]
    assert set(main.added) == {"f"}
    assert set(main.removed) == {"c", "b", "a", "m"}
    assert main.changed == ("e",)  # exponential(a) -> exponential(p)
    assert d.added_computations == ("fused",) and set(d.computations["fused"].added) == {"x", "y", "m"}
    h = d.highlight()
    assert set(h["added"]) == {"x", "y", "f"} and set(h["removed"]) == {"c", "b", "a"}
    assert set(h["changed"]) == {"e", "m"}  # m moved into the fused computation


def test_identical_modules_have_an_empty_diff():
    a = hloscope.parse_hlo(BEFORE)
    assert not graph_diff(a, a) and not graph_diff(a, hloscope.parse_hlo(BEFORE))


def test_metadata_alone_is_not_a_change():
    tagged = BEFORE.replace("exponential(%a)", 'exponential(%a), metadata={op_name="exp"}')
    assert not graph_diff(hloscope.parse_hlo(BEFORE), hloscope.parse_hlo(tagged))


def test_text_diff_html_colours_lines_and_highlights_tokens():
    out = text_diff_html(BEFORE, AFTER)
    assert "<style>" in out and "http" not in out
    assert '<span class="da">+' in out and '<span class="dd">-' in out and '<span class="dk">@@' in out
    assert '<span class="o">fusion</span>' in out  # the HLO inside diff lines is highlighted
    plain = html.unescape(re.sub(r"<[^>]*>", "", out.split("</style>", 1)[1]))
    assert "+  ROOT %f = f32[4]{0} fusion(%e, %p), kind=kLoop, calls=%fused" in plain
    assert "-  %a = f32[4]{0} add(%p, %b)" in plain


def test_text_diff_of_equal_texts_says_so():
    assert "no textual change" in text_diff_html(BEFORE, BEFORE)


def test_long_diffs_are_capped():
    before = "\n".join(f"%v{i} = f32[] constant({i})" for i in range(100))
    after = "\n".join(f"%v{i} = f32[] constant({i + 1})" for i in range(100))
    out = text_diff_html(before, after, max_lines=20)
    assert "more diff lines" in out and "+100 -100 lines" in out
