"""Fixtures for the Jupyter layer: an IPython shell with `%load_ext hloscope`, and small
functions and HLO texts to compile. No kernel or browser is needed: ipywidgets objects work
without a front end, and IPython's InteractiveShell runs cells in-process."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("IPython")
pytest.importorskip("ipywidgets")

from jupyter_helpers import softmax  # noqa: E402  (after the importorskips)


@pytest.fixture(scope="session")
def shell():
    from IPython.core.interactiveshell import InteractiveShell

    ip = InteractiveShell.instance()
    ip.run_cell("%load_ext hloscope", store_history=False)
    ip.run_cell("import numpy as np", store_history=False)
    return ip


@pytest.fixture
def run(shell, capsys):
    """run(cell) -> (ExecutionResult, everything printed): one cell in the shell."""

    def _run(cell: str):
        capsys.readouterr()
        result = shell.run_cell(cell, store_history=True)
        return result, capsys.readouterr().out

    return _run


@pytest.fixture(scope="session")
def softmax_explorer():
    """A finished explorer on softmax (shared: building one compiles the function)."""
    import hloscope

    x = np.random.default_rng(0).standard_normal((16, 32)).astype(np.float32)
    ex = hloscope.explore(softmax, x)
    yield ex
    ex.close()
