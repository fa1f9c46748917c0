"""The package's parts stand in layers: each imports only from the layers below it.

A part is a top-level module or sub-package of hloscope. Every relative import counts,
at module level or inside a function, except:
- imports under `if TYPE_CHECKING:` (annotations only; nothing runs), and
- imports inside `_repr_html_` and `_hloscope_explore_`: an IR value or a plan drawing itself
  in a notebook calls up into viz, and an object with its own explorer view (an autojit
  function, lazy steps, a comparison with XLA) into jupyter: the one deliberate way
  down-the-stack objects reach the views.
A new import that goes up a layer, or two parts that import each other, fails here with the
file and line, so the architecture in docs/architecture.md stays the one the code has.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "hloscope"
VIEW_HOOKS = ("_repr_html_", "_hloscope_explore_")  # an object asking the views to draw it

# Lowest first. A part may import from its own layer (no cycles, checked below) and any lower one.
LAYERS: list[set[str]] = [
    {"errors", "gc_pause", "version"},  # no hloscope imports at all
    {"ir"},  # HLO: shapes, instructions, parser, printer, verifier
    {"evaluator", "memory", "frontend", "runtime", "cost", "stablehlo"},  # what reads or builds IR; host-side runtime pieces; the cost model; StableHLO legalized to HLO
    {"passes", "spmd"},  # HLO -> HLO, each run recorded; shardings and the SPMD partitioner
    {"viz"},  # text, HTML and graphs of IR and of records (the record's type only for annotations)
    {"compilation"},  # the one record and the stage driver
    {"backend"},  # targets: lower/optimize/load stages that the driver runs
    {"compiler", "xla"},  # the public compile/optimize/jit, the targets table; XLA's dumps read into a record, compared with a compile
    {"session", "teaching", "autocluster", "lazy", "whatif", "sharded"},  # a compile with named options, as the CLI and the explorer ask for it; autojit (compiles clusters); lazy tensors (steps compiled on demand); what-if experiments
    {"jupyter", "cli"},  # the two user interfaces
    {"numpy", "__init__"},  # the public namespaces
]
LAYER_OF = {part: depth for depth, parts in enumerate(LAYERS) for part in parts}


def _part(dotted: str) -> str:
    """hloscope.ir.shape -> ir; hloscope -> __init__."""
    bits = dotted.split(".")
    return bits[1] if len(bits) > 1 else "__init__"


def _is_module(dotted: str) -> bool:
    path = PACKAGE.parent.joinpath(*dotted.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _type_checking_block(node: ast.AST) -> bool:
    test = getattr(node, "test", None)
    return isinstance(node, ast.If) and (
        (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING")
        or (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")
    )


def _counted_imports(tree: ast.AST):
    """Relative ImportFrom nodes that count (see the module docstring)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if _type_checking_block(node):
            stack.extend(getattr(node, "orelse", []))
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in VIEW_HOOKS:
            continue
        if isinstance(node, ast.ImportFrom) and node.level:
            yield node
        stack.extend(ast.iter_child_nodes(node))


def import_edges() -> dict[tuple[str, str], list[str]]:
    """{(importing part, imported part): ["file:line", ...]} between different parts."""
    edges: dict[tuple[str, str], list[str]] = defaultdict(list)
    for file in sorted(PACKAGE.rglob("*.py")):
        relative = file.relative_to(PACKAGE.parent).with_suffix("")
        module = ".".join(relative.parts)
        package = module.removesuffix(".__init__") if file.name == "__init__.py" else module.rsplit(".", 1)[0]
        source = _part(module.removesuffix(".__init__"))
        for node in _counted_imports(ast.parse(file.read_text(), str(file))):
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            target = ".".join(base + ([node.module] if node.module else []))
            # `from .. import name`: a submodule when there is one, else a name in the package.
            targets = [target] if node.module else [
                f"{target}.{alias.name}" if _is_module(f"{target}.{alias.name}") else target for alias in node.names
            ]
            for dotted in targets:
                imported = _part(dotted)
                if imported != source:
                    edges[(source, imported)].append(f"{file.relative_to(PACKAGE.parent)}:{node.lineno}")
    return edges


def _cycles(edges) -> list[list[str]]:
    """Strongly connected groups of more than one part (Tarjan)."""
    graph: dict[str, set[str]] = defaultdict(set)
    for a, b in edges:
        graph[a].add(b)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in list(graph):
        if v not in index:
            visit(v)
    return groups


def test_every_part_has_a_layer():
    parts = {p.stem if p.is_file() else p.name for p in PACKAGE.iterdir() if p.suffix == ".py" or (p / "__init__.py").exists()}
    assert parts - set(LAYER_OF) == set(), "add the new part to LAYERS (and to docs/architecture.md)"


def test_no_part_imports_from_a_layer_above():
    upward = [
        f"{a} (layer {LAYER_OF[a]}) imports {b} (layer {LAYER_OF[b]}) at {', '.join(where[:3])}"
        for (a, b), where in sorted(import_edges().items())
        if LAYER_OF[b] > LAYER_OF[a]
    ]
    assert upward == [], "\n".join(upward)


def test_no_two_parts_import_each_other():
    edges = import_edges()
    problems = [
        f"{' <-> '.join(group)}: " + "; ".join(f"{a}->{b} at {edges[(a, b)][0]}" for a in group for b in group if (a, b) in edges)
        for group in _cycles(edges)
    ]
    assert problems == [], "\n".join(problems)


def test_the_checks_see_an_upward_import(tmp_path, monkeypatch):
    """Not vacuous: a fake ir module importing the compiler is reported with its line."""
    fake = tmp_path / "hloscope"
    (fake / "ir").mkdir(parents=True)
    (fake / "ir" / "__init__.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..viz import x\n")
    (fake / "ir" / "shape.py").write_text("def f():\n    from ..compiler import compile\n")
    (fake / "compiler.py").write_text("from .ir import shape\n")
    monkeypatch.setattr(__import__(__name__), "PACKAGE", fake)
    edges = import_edges()
    assert edges[("ir", "compiler")] == ["hloscope/ir/shape.py:2"]
    assert ("ir", "viz") not in edges  # annotations only
    assert _cycles(edges) == [["compiler", "ir"]]
