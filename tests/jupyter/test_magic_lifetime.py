"""Re-running a %%hlo cell closes the explorer it showed before.

Its output is replaced in the notebook, but an open widget stays registered with ipywidgets
and keeps its whole compilation alive for the kernel's life: a cell re-run fifty times
would keep fifty. JupyterLab names the running cell in the request's metadata (`cellId`);
here the shell has no front end, so the test names the cell.
"""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest
from ipywidgets.widgets.widget import _instances

from hloscope import compile_cache
from hloscope.jupyter import magic

CELL = "%%hlo double(x)\ndef double(x):\n    return x * 2.0\n"


def _is_open(widget) -> bool:
    return widget.comm is not None and widget.model_id in _instances


def _explorer_of(shell, cell_id: str):
    return shell.user_ns["__hloscope_explorers__"][cell_id]


@pytest.fixture
def no_compile_cache():
    """The cache keeps an executable and its record on purpose; without it, what is left
    alive is only what the explorer keeps."""
    limit = compile_cache.info().memory.max_entries
    compile_cache.set_limits(max_entries=0)
    yield
    compile_cache.set_limits(max_entries=limit)


def test_rerunning_a_cell_closes_its_previous_explorer(run, shell, monkeypatch, no_compile_cache):
    shell.user_ns["x"] = np.ones((4, 8), np.float32)
    monkeypatch.setattr(magic, "_cell_id", lambda shell: "cell-a")
    assert run(CELL)[0].success
    first = _explorer_of(shell, "cell-a")
    assert _is_open(first)
    record = weakref.ref(first.report)

    assert run(CELL)[0].success  # the same cell again
    second = _explorer_of(shell, "cell-a")
    assert second is not first and _is_open(second)
    assert not _is_open(first)  # closed: ipywidgets lets it go
    del first
    gc.collect()
    assert record() is None  # nothing else kept the first compilation

    monkeypatch.setattr(magic, "_cell_id", lambda shell: "cell-b")
    assert run(CELL)[0].success  # another cell leaves the first cell's explorer open
    assert _is_open(second)
    for cell_id in ("cell-a", "cell-b"):
        _explorer_of(shell, cell_id).close()
