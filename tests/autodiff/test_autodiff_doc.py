"""docs/autodiff.md lists exactly the registry: the differentiable opcodes (by rule file), the
refused ones with their reasons, and the opcodes that make no float result."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

from hloscope.frontend.autodiff import NON_FLOAT_OPCODES, REFUSED, VJP_RULES

DOC = Path(__file__).resolve().parents[2] / "docs" / "autodiff.md"
RULE_FILES = ["elementwise", "structure", "reductions", "linalg", "control"]


def _section(name: str) -> str:
    text = DOC.read_text()
    match = re.search(f"<!-- {name} -->\n(.*?)<!-- /{name} -->", text, re.S)
    assert match, f"docs/autodiff.md has no <!-- {name} --> section"
    return match.group(1)


def differentiable_section() -> str:
    """The section as the registry says it should read (paste this into the doc when it changes)."""
    by_file = defaultdict(list)
    for opcode, rule in VJP_RULES.items():
        by_file[rule.__module__.rsplit(".", 1)[-1]].append(opcode)
    assert set(by_file) <= set(RULE_FILES), sorted(by_file)
    return "".join(f"- {f}: " + " ".join(f"`{o}`" for o in sorted(by_file[f])) + "\n" for f in RULE_FILES if by_file[f])


def test_the_doc_lists_exactly_the_differentiable_opcodes():
    assert _section("differentiable-ops") == differentiable_section()


def test_the_doc_lists_the_refused_opcodes_with_their_reasons():
    want = "".join(f"- `{opcode}`: {why}\n" for opcode, why in sorted(REFUSED.items()))
    assert _section("refused-ops") == want


def test_the_doc_lists_the_opcodes_without_cotangents():
    assert _section("non-float-ops") == " ".join(f"`{o}`" for o in sorted(NON_FLOAT_OPCODES)) + "\n"


def test_the_readme_links_the_doc():
    assert "docs/autodiff.md" in (DOC.parents[1] / "README.md").read_text()
