"""One concept, one name: no two classes in hloscope/ share a name.

Two classes called `Decision` (a pass's and a lazy step's) or `Target` (the compile target's
and the GPU assembler's) make a reader, a traceback and an import guess which one is meant.
Private helpers count too: `_Rewriter` in three files reads as one thing and is three.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "hloscope"


def class_definitions(package: Path) -> dict[str, list[str]]:
    """class name -> every `file:line` that defines it."""
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ClassDef):
                where[node.name].append(f"{path.relative_to(package.parent)}:{node.lineno}")
    return where


def test_no_class_name_is_defined_twice():
    twice = {name: places for name, places in class_definitions(PACKAGE).items() if len(places) > 1}
    assert not twice, "class names defined more than once:\n" + "\n".join(
        f"  {name}: {', '.join(places)}" for name, places in sorted(twice.items()))


def test_the_check_finds_a_name_defined_twice(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text("class Thing:\n    pass\n")
    (tmp_path / "pkg" / "b.py").write_text("def f():\n    class Thing:\n        pass\n")
    assert class_definitions(tmp_path / "pkg")["Thing"] == ["pkg/a.py:1", "pkg/b.py:2"]
