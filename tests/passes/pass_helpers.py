"""Shared helpers for the pass tests: golden files, corpus cases, running one pass.

(A plain module rather than conftest.py, so `from pass_helpers import ...` is unambiguous
when other test folders have a conftest of their own.)

Golden files are compared exactly. To rewrite them after an intended change, run
`HLOSCOPE_UPDATE_GOLDEN=1 python -m pytest tests/passes` and review the diff.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from hloscope import parse_hlo
from hloscope.passes.pipeline import Pipeline

GOLDEN = Path(__file__).parent / "golden"
CORPUS = Path(__file__).parent.parent / "corpus"
UPDATE = os.environ.get("HLOSCOPE_UPDATE_GOLDEN") == "1"


def check_golden(path: Path, text: str) -> None:
    """`text` must equal the file at `path` (written instead when updating goldens)."""
    if UPDATE:
        path.write_text(text)
        return
    if not path.exists():
        pytest.fail(f"{path.name} is missing; run with HLOSCOPE_UPDATE_GOLDEN=1 to create it")
    assert text == path.read_text(), f"{path} differs (HLOSCOPE_UPDATE_GOLDEN=1 rewrites it)"


def run_pass(p, text_or_module):
    """Run one pass (verified, as a pipeline would) and return (module after, its record)."""
    module = parse_hlo(text_or_module) if isinstance(text_or_module, str) else text_or_module
    records = []
    after = Pipeline("test", [p]).run(module, records)
    return after, records[0]


def corpus_cases() -> dict:
    return json.loads((CORPUS / "manifest.json").read_text())["cases"]


def corpus_case(name: str):
    """(module, args, outputs, case) of one corpus case."""
    case = corpus_cases()[name]
    module = parse_hlo((CORPUS / case["files"]["hlo"]).read_text())
    data = np.load(CORPUS / case["files"]["npz"])
    args = [data[f"arg{i}"] for i in range(len(case["inputs"]))]
    outs = [data[f"out{i}"] for i in range(len(case["outputs"]))]
    return module, args, outs, case

