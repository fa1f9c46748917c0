"""Every derivative in these tests must compile natively on backend="cpu": a program the
backend cannot lower would silently run on the evaluator (jit's fallback warns), so that
warning is an error here."""

from __future__ import annotations

import pytest

NATIVE_ONLY = pytest.mark.filterwarnings("error:.*reference evaluator instead")


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/autodiff/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(NATIVE_ONLY)
