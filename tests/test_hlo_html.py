"""The HLO highlighter and the rich display of modules in Jupyter."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hloscope.viz.hlo_html import highlight_hlo, hlo_block, module_html

CORPUS = Path(__file__).resolve().parent / "corpus"
LINE = '  ROOT %add.3 = f32[8]{0} add(%x.1, %y.2), metadata={op_name="jit(<lambda>)/add"}'


def _plain(markup: str) -> str:
    """The text a browser would show for `markup` (tags dropped, entities decoded)."""
    return html.unescape(re.sub(r"<[^>]*>", "", markup))


def _spans(markup: str, cls: str) -> list[str]:
    return re.findall(rf'<span class="{cls}">([^<]*)</span>', markup)


def test_escapes_angle_brackets_and_ampersands():
    out = highlight_hlo(LINE + " // a < b && c > d")
    assert "<lambda>" not in out and "&lt;lambda&gt;" in out
    assert "a &lt; b &amp;&amp; c &gt; d" in out


def test_marks_opcodes_shapes_names_keys_and_numbers():
    out = highlight_hlo('%c = s32[2,3]{1,0} constant({...}), dimensions={0,1}, kind=kLoop')
    assert _spans(out, "o") == ["constant"]
    assert _spans(out, "t") == ["s32[2,3]{1,0}"]
    assert _spans(out, "n") == ["%c"]
    assert _spans(out, "k") == ["dimensions", "kind"]
    assert _spans(out, "l") == ["0", "1", "kLoop"]


def test_dims_metadata_and_comments_and_marks_keywords():
    out = highlight_hlo(LINE + " /*index=5*/")
    dimmed = _spans(out, "c")
    assert dimmed[0].startswith("metadata={op_name=") and dimmed[1] == "/*index=5*/"
    assert _spans(out, "w") == ["ROOT"]


def test_unsigiled_names_are_names_and_tuple_shapes_mark_each_element():
    out = highlight_hlo("x.1 = (f32[], pred[4]) tuple(a, b)")
    assert _spans(out, "n") == ["x.1", "a", "b"]
    assert _spans(out, "t") == ["f32[]", "pred[4]"]


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.hlo")), ids=lambda p: p.name)
def test_highlighting_never_changes_the_text(path):
    text = path.read_text()
    assert _plain(highlight_hlo(text)) == text


@settings(max_examples=200, deadline=None)
@pytest.mark.fuzz
@given(st.text(alphabet=st.sampled_from(list('%abf32[]{},()=<>&"/*.- \n\\0ROOT')), max_size=80))
def test_highlighting_round_trips_any_text(text):
    assert _plain(highlight_hlo(text)) == text


def test_block_is_self_contained_and_caps_long_text():
    text = "\n".join(f"%v.{i} = f32[] constant({i})" for i in range(25))
    out = hlo_block(text, header="HloModule m", max_lines=10)
    assert "<style>" in out and "http" not in out  # no external resources
    assert "%v.9" in out and "%v.10" not in out
    assert "15 more lines not shown" in out
    assert "more lines" not in hlo_block(text, max_lines=25)


def test_module_html_shows_header_and_text_of_a_corpus_module():
    import hloscope

    module = hloscope.parse_hlo((CORPUS / "softmax.hlo").read_text())
    out = module_html(module)
    assert "HloModule jit__lambda: 3 computations, 25 instructions" in out
    assert '<span class="o">exponential</span>' in out
    assert module._repr_html_() == out


def test_stack_frame_tables_are_dimmed_as_one_block():
    text = 'FileNames\n1 "a.py"\n\nStackFrames\n1 {file_location_id=1 parent_frame_id=1}\n\nENTRY %e {'
    out = highlight_hlo(text)
    assert _spans(out, "c") == ['FileNames\n1 "a.py"', "StackFrames\n1 {file_location_id=1 parent_frame_id=1}"]
    assert _plain(out) == text


def test_metadata_is_hidden_until_its_box_is_ticked():
    block = hlo_block(LINE)
    assert '<input class="mt" type="checkbox">' in block and ".hloscope-hlo .m { display: none; }" in block
    hidden = re.findall(r'<span class="m">(, <span class="c">[^<]*</span>)</span>', block)
    assert len(hidden) == 1 and _plain(hidden[0]).startswith(', metadata={op_name="jit(<lambda>)/add"}')
    assert _plain(highlight_hlo(LINE)) == LINE  # the text itself is unchanged
    assert 'type="checkbox"' not in hlo_block("%x = f32[] parameter(0)")  # no metadata, no box
    frames = 'FileNames\n1 "a.py"\n\nStackFrames\n1 {file_location_id=1 parent_frame_id=1}\n\nENTRY %e {'
    assert 'type="checkbox"' in hlo_block(frames) and hlo_block(frames).count('<span class="m">') == 2
