"""Every notebook in notebooks/ runs top to bottom without an error, in this environment's kernel."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
CELL_TIMEOUT_S = 120


def _execute(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """Run `nb` in a `python3` kernel with notebooks/ as the working directory."""
    client = NotebookClient(
        nb,
        timeout=CELL_TIMEOUT_S,
        kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOKS)}},
    )
    return client.execute()


def _stdout(cell) -> str:
    return "".join(o.get("text", "") for o in cell.outputs if o.get("name") == "stdout")


def test_the_kernel_is_this_environments_python():
    # nbclient finds `python3` through kernelspecs; a kernel registered elsewhere (another
    # environment's ipykernel) would run the notebooks against the wrong packages.
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import sys; print(sys.prefix)")])
    prefix = _stdout(_execute(nb).cells[0]).strip()
    assert Path(prefix).resolve() == Path(sys.prefix).resolve()


def _exercise_checks(nb: nbformat.NotebookNode) -> list:
    """The cells tagged `exercise-check`: the check cells of the exercises."""
    return [c for c in nb.cells if c.cell_type == "code" and "exercise-check" in c.metadata.get("tags", [])]


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.name)
def test_notebook_runs_without_errors(path):
    executed = _execute(nbformat.read(path, as_version=4))  # raises CellExecutionError on any error
    # As committed, every exercise is unanswered: each check line says so, none is a ✓ or a ✗.
    for cell in _exercise_checks(executed):
        lines = _stdout(cell).strip().splitlines()
        assert lines and all(line.endswith(": not answered yet") for line in lines), (cell.source, lines)


def test_every_numbered_chapter_has_an_exercise():
    chapters = [p for p in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")) if not p.name.startswith("00_")]
    assert len(chapters) >= 14
    for path in chapters:
        nb = nbformat.read(path, as_version=4)
        assert _exercise_checks(nb), f"{path.name} has no cell tagged exercise-check"
        answers = [c.source for c in nb.cells if c.cell_type == "code" and "# your turn" in c.source]
        assert answers and all("..." in source for source in answers), path.name


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("*.ipynb")), ids=lambda p: p.name)
def test_notebook_is_committed_without_outputs(path):
    cells = json.loads(path.read_text())["cells"]
    assert all("id" in cell for cell in cells), "every cell needs an id (nbformat 4.5 makes it required)"
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert not cell.outputs and cell.execution_count is None


def test_every_chapter_opens_the_explorer_so_the_browser_test_runs_it():
    # tests/browser finds its notebooks by this scan; a chapter without an explorer would go untested there.
    spec = importlib.util.spec_from_file_location("explorer_notebooks", NOTEBOOKS.parent / "tests" / "browser" / "explorer_notebooks.py")
    assert spec and spec.loader
    scan = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(scan)
    shown = {path.name for path in scan.explorer_notebooks(NOTEBOOKS)}
    assert [p.name for p in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")) if p.name not in shown] == []


def test_there_are_notebooks():
    assert any(NOTEBOOKS.glob("*.ipynb"))
