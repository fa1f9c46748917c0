"""Every notebook in notebooks/ runs top to bottom without an error, in this environment's kernel.

Each notebook runs once in the suite: those that show an explorer run in JupyterLab
(tests/browser, which also sees what fails inside a widget), and here only the others, or
all of them where the browser test cannot run (no Chromium: it says why when it skips)."""

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


def _browser_scripts():
    """tests/browser's scan of the notebooks and its check of what it needs (imported by path:
    that folder is not on sys.path here)."""
    modules = []
    for name in ("explorer_notebooks", "browser_env"):
        spec = importlib.util.spec_from_file_location(name, NOTEBOOKS.parent / "tests" / "browser" / f"{name}.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        modules.append(module)
    return modules


_SCAN, _BROWSER = _browser_scripts()
IN_THE_BROWSER = {p.name for p in _SCAN.explorer_notebooks(NOTEBOOKS)} if not _BROWSER.why_not() else set()
HEADLESS = [p for p in sorted(NOTEBOOKS.glob("*.ipynb")) if p.name not in IN_THE_BROWSER]


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


@pytest.mark.notebook
def test_the_kernel_is_this_environments_python():
    # nbclient finds `python3` through kernelspecs; a kernel registered elsewhere (another
    # environment's ipykernel) would run the notebooks against the wrong packages.
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import sys; print(sys.prefix)")])
    prefix = _stdout(_execute(nb).cells[0]).strip()
    assert Path(prefix).resolve() == Path(sys.prefix).resolve()


def _exercise_checks(nb: nbformat.NotebookNode) -> list:
    """The cells tagged `exercise-check`: the check cells of the exercises."""
    return [c for c in nb.cells if c.cell_type == "code" and "exercise-check" in c.metadata.get("tags", [])]


if HEADLESS:  # none where the browser test runs every notebook

    @pytest.mark.notebook
    @pytest.mark.parametrize("path", HEADLESS, ids=lambda p: p.name)
    def test_notebook_runs_without_errors(path):
        executed = _execute(nbformat.read(path, as_version=4))  # raises CellExecutionError on any error
        # As committed, every exercise is unanswered: each check line says so, none is a ✓ or a ✗.
        for cell in _exercise_checks(executed):
            lines = _stdout(cell).strip().splitlines()
            assert lines and all(line.endswith(": not answered yet") for line in lines), (cell.source, lines)


def test_each_notebook_runs_once_in_the_suite():
    """Headless here or in JupyterLab, never both; all of them somewhere."""
    assert not IN_THE_BROWSER & {p.name for p in HEADLESS}
    assert IN_THE_BROWSER | {p.name for p in HEADLESS} == {p.name for p in NOTEBOOKS.glob("*.ipynb")}


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
    shown = {path.name for path in _SCAN.explorer_notebooks(NOTEBOOKS)}
    assert [p.name for p in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb")) if p.name not in shown] == []


def test_there_are_notebooks():
    assert any(NOTEBOOKS.glob("*.ipynb"))
