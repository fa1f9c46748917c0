"""Helpers for the visualisation tests: corpus modules, synthetic modules and small
stand-ins for memory plans (plain dataclasses). A uniquely named module rather than
conftest.py, so `import` cannot pick up another folder's conftest."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import hloscope

CORPUS = Path(__file__).resolve().parent.parent / "corpus"


def corpus_module(name: str):
    """A corpus module, e.g. corpus_module("softmax.opt") for XLA's optimized softmax."""
    return hloscope.parse_hlo((CORPUS / f"{name}.hlo").read_text())


def chain_module(n: int, name: str = "big"):
    """A module with n elementwise instructions, each reading the previous and an earlier one
    (a DAG with long edges: slow for Graphviz when n is large)."""
    lines = [f"HloModule {name}", "", "ENTRY %main (p0: f32[8]) -> f32[8] {", "  %p0 = f32[8]{0} parameter(0)"]
    prev = "p0"
    for i in range(n):
        other = f"a{i // 2}" if i > 1 else "p0"
        op = ("add", "multiply", "subtract", "maximum")[i % 4]
        root = "ROOT " if i == n - 1 else ""
        lines.append(f"  {root}%a{i} = f32[8]{{0}} {op}(%{prev}, %{other})")
        prev = f"a{i}"
    lines.append("}")
    return hloscope.parse_hlo("\n".join(lines))


@dataclass
class StandInBuffer:
    name: str
    offset: int | None
    size: int
    start: int
    end: int
    kind: str = "temporary"


@dataclass
class StandInPlan:
    buffers: list
    peak_bytes: int
    naive_bytes: int
    schedule: list = field(default_factory=list)
