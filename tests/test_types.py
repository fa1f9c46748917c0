"""The package type-checks: basedpyright (pyright, mode "standard", settings in pyproject.toml)
finds no errors in hloscope/ and benchmarks/ (which nothing else in CI runs, so an API change
that breaks one shows here).

Types are how a reader learns what a stage takes and gives, and the checker has found real
bugs here (a missing shape narrowing, a call with a stale signature). It runs in about 20
seconds; a failure prints every error with its file and line.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.typecheck

ROOT = Path(__file__).resolve().parents[1]


def _checker() -> str:
    """The basedpyright installed next to this Python (the dev extra), else on PATH."""
    beside = Path(sys.executable).with_name("basedpyright")
    found = str(beside) if beside.exists() else shutil.which("basedpyright")
    assert found, "basedpyright is not installed: it is in the dev extra (pip install -e '.[dev]')"
    return found


def test_the_package_type_checks():
    done = subprocess.run([_checker(), "--outputjson"], cwd=ROOT, capture_output=True, text=True, timeout=600)
    report = json.loads(done.stdout)
    errors = [d for d in report["generalDiagnostics"] if d["severity"] == "error"]
    lines = [
        f"{Path(d['file']).relative_to(ROOT)}:{d['range']['start']['line'] + 1}: {d['message'].splitlines()[0]}"
        for d in errors
    ]
    assert report["summary"]["filesAnalyzed"] > 100, "the checker did not see the package (see [tool.basedpyright])"
    assert lines == [], f"{len(lines)} type errors:\n" + "\n".join(lines[:60])
