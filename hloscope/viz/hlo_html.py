"""HLO text as syntax-highlighted HTML, for Jupyter and static reports.

`highlight_hlo` works on any HLO text (a module, one computation, a pass's before/after),
so it does not need a parsed module: a single regular expression walks the text once and
wraps each token in a `<span>` whose class says what it is. The CSS is inline (one
`<style>` block, no external files), so the HTML shows the same offline and when exported.

    %add.3 = f32[8]{0} add(%x, %y), metadata={op_name="add"}
    ^name    ^shape    ^opcode        ^metadata (dimmed; in `hlo_block`, hidden until its
                                       "show metadata" box is ticked)

The stack-frame tables of recent XLA dumps (FileNames ... StackFrames) are dimmed as well.
"""

from __future__ import annotations

import html
import re

MAX_LINES = 20_000  # beyond this a browser slows to a crawl; show the head and say so

# One alternative per token kind; the first that matches at a position wins, so longer,
# more specific tokens (comments, metadata, strings, shapes) come before plain words.
_TOKEN = re.compile(
    r"""
    (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<frames>^(?:FileNames|FunctionNames|FileLocations|StackFrames)$(?:\n.+)*)
  | (?P<meta>(?:,\ )?metadata=\{(?:"(?:[^"\\\n]|\\.)*"|[^{}"\n])*\})
  | (?P<string>"(?:[^"\\\n]|\\.)*")
  | (?P<shape>\b(?:pred|token|bf16|[fsuc]\d+[a-z0-9]*)\[[^\]\n]*\](?:\{[^{}\n]*\})?)
  | (?P<name>%[\w.\-]+)
  | (?P<word>[A-Za-z_][\w.\-]*)
  | (?P<number>\b\d+(?:\.\d*)?(?:[eE][+-]?\d+)?\b)
  | (?P<escape>[&<>])
    """,
    re.VERBOSE | re.MULTILINE,
)

_KEYWORDS = frozenset({"HloModule", "ENTRY", "ROOT"})
# Bare words that are values, not instruction or computation names.
_LITERAL_WORDS = frozenset(
    "true false inf nan kLoop kInput kOutput kCustom EQ NE GE GT LE LT "
    "FLOAT TOTALORDER SIGNED UNSIGNED".split()
)

# CSS class per token kind (short, since a 10k-line module has ~150k spans).
_CLASS = {
    "comment": "c",
    "meta": "c",
    "frames": "c",  # the stack-frame tables: source locations, metadata like metadata={...}
    "string": "s",
    "shape": "t",
    "name": "n",
    "number": "l",
    "op": "o",
    "key": "k",
    "kw": "w",
    "lit": "l",
}

CSS = """
.hloscope-hlo { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
.hloscope-hlo .hdr { font-weight: 600; padding: 2px 0 4px 0; }
.hloscope-hlo .note { color: #9a6700; }
.hloscope-hlo pre { background: #f8f8fa; color: #1f2328; padding: 8px 10px; margin: 0;
  line-height: 1.35; font-size: 12px; overflow: auto; max-height: 40em; border-radius: 4px; }
.hloscope-hlo .o { color: #8250df; font-weight: 600; }
.hloscope-hlo .t { color: #0a6b5a; }
.hloscope-hlo .n { color: #0550ae; }
.hloscope-hlo .k { color: #953800; }
.hloscope-hlo .l { color: #cf222e; }
.hloscope-hlo .s { color: #0a3069; }
.hloscope-hlo .w { color: #1f2328; font-weight: 700; }
.hloscope-hlo .c { color: #8c959f; }
.hloscope-hlo .m { display: none; }
.hloscope-hlo:has(input.mt:checked) .m { display: inline; }
.hloscope-hlo label.mt { font-size: 11px; color: #57606a; cursor: pointer; }
"""


def _word_kind(word: str, text: str, end: int) -> str:
    """Classify a bare word by what follows it: `op(`, `key=`, `name = ...`."""
    following = text[end : end + 3]
    if following.startswith("("):
        return "op"
    if following.startswith("="):
        return "key"
    if word in _KEYWORDS:
        return "kw"
    if word in _LITERAL_WORDS:
        return "lit"
    return "name"  # an unsigiled name: `x.1 = ...`, `add(x.1, y.2)`, `to_apply=region_0`


def _span(match: re.Match) -> str:
    kind = match.lastgroup
    assert kind is not None, "every alternative of _TOKEN is a named group"
    token = match.group()
    if kind == "escape":
        return html.escape(token)
    if kind in ("meta", "frames"):  # hidden until the block's "metadata" box is ticked (hlo_block)
        comma, body = (", ", token[2:]) if token.startswith(", ") else ("", token)
        return f'<span class="m">{comma}<span class="c">{html.escape(body, quote=False)}</span></span>'

    if kind == "word":
        kind = _word_kind(token, match.string, match.end())
    return f'<span class="{_CLASS[kind]}">{html.escape(token, quote=False)}</span>'


def highlight_hlo(text: str) -> str:
    """HLO text as HTML-escaped markup with a `<span class=...>` around each token.

    Put the result inside `<div class="hloscope-hlo"><pre>...</pre></div>` with `CSS`
    (or use `hlo_block`, which does that).
    """
    return _TOKEN.sub(_span, text)


def _cap_lines(text: str, max_lines: int) -> tuple[str, int]:
    """The first `max_lines` lines of `text` and how many lines were left out."""
    parts = text.split("\n", max_lines)
    if len(parts) <= max_lines:
        return text, 0
    return "\n".join(parts[:max_lines]), parts[max_lines].count("\n") + 1


def hlo_block(text: str, header: str = "", max_lines: int = MAX_LINES) -> str:
    """A self-contained HTML block: inline CSS, an optional header line and the highlighted text."""
    shown, hidden = _cap_lines(text, max_lines)
    parts = ['<div class="hloscope-hlo">', f"<style>{CSS}</style>"]
    if header:
        parts.append(f'<div class="hdr">{html.escape(header)}</div>')
    if "metadata={" in shown or "\nStackFrames\n" in f"\n{shown}":  # one click shows what is hidden
        parts.append('<label class="mt"><input class="mt" type="checkbox"> show metadata</label>')
    parts.append(f"<pre>{highlight_hlo(shown)}</pre>")
    if hidden:
        parts.append(
            f'<div class="note">... {hidden:,} more lines not shown '
            f"(only the first {max_lines:,} are displayed; use to_text() for all).</div>"
        )
    parts.append("</div>")
    return "".join(parts)


def module_header(module) -> str:
    """`HloModule name: N computations, M instructions`, for the top of a display."""
    n_comp = len(module.computations)
    n_inst = module.instruction_count()
    return (
        f"HloModule {module.name}: {n_comp} computation{'s' * (n_comp != 1)}, "
        f"{n_inst} instruction{'s' * (n_inst != 1)}"
    )


def module_html(module, max_lines: int = MAX_LINES) -> str:
    """Rich HTML for an HloModule (what Jupyter shows for `module` at the end of a cell)."""
    return hlo_block(module.to_text(), module_header(module), max_lines)
