"""Every notebook in notebooks/ that shows an explorer, run in JupyterLab as a user runs it:
the test fails, naming the cell, the explorer and the stage, when the page shows a failed
stage, a failed view, an error or stderr output, a cell left unrun or a widget that never
rendered. A failed stage lives inside the widget (no cell raises), so tests/test_notebooks.py,
which runs the same notebooks headlessly, cannot see it.

test_the_checks_see_each_kind_of_problem runs broken_notebook.ipynb, which goes wrong in each
of those ways on purpose, to show that the checks would catch them.
"""

from __future__ import annotations

import pytest

from explorer_notebooks import NOTEBOOKS, cell_sources, exercise_checks, explorer_notebooks
from lab_notebook import WIDGET_GRACE_S, problems, run_all_cells

pytestmark = pytest.mark.browser

# What broken_notebook.ipynb must be reported for: one line per problem, in cell order, each
# with these parts. The stages after its failed passes stage are skipped, which is no problem.
BROKEN = [
    ("cell 3 ", "explorer 'hloscope: double'", "stage 'optimize' failed: ", "broken on purpose"),
    ("cell 4 ", "explorer 'hloscope: double'", "view 'Memory' failed: ", "view broken on purpose"),
    ("cell 5 ", "error output: stderr on purpose"),
    ("cell 6 ", "a widget never rendered: "),
    ("cell 7 ", "error output: ValueError: an error on purpose"),
    ("cell 8 ", "was not run"),
]


def test_the_scan_finds_the_explorer_notebooks():
    assert "00_explorer_tour.ipynb" in [path.name for path in explorer_notebooks()]
    assert "11_reading_a_real_xla_dump.ipynb" in [path.name for path in explorer_notebooks()]
    assert "12_from_a_loss_to_its_training_step.ipynb" in [path.name for path in explorer_notebooks()]


@pytest.mark.parametrize("name", [path.name for path in explorer_notebooks()])
def test_notebook_shows_no_problem_in_jupyterlab(lab, notebook_tab, name):
    """The notebook's one run in the suite (tests/test_notebooks.py runs only those no
    explorer shows): no problem on the page, and every exercise as committed, unanswered."""
    cells, found = _run(lab, notebook_tab, f"notebooks/{name}")
    assert not found, f"{NOTEBOOKS.name}/{name} in JupyterLab:\n  " + "\n  ".join(found)
    # The scan saw explorer code: the page must show one, or the checks above read nothing.
    assert any(r.kind == "explorer" and r.stages for c in cells for r in c.reports), "no explorer with stages seen"
    checks = exercise_checks(NOTEBOOKS / name)
    assert len(cells) == len(cell_sources(NOTEBOOKS / name)), "the page shows another number of cells than the file"
    for index in checks:
        lines = cells[index].stdout.strip().splitlines()
        assert lines and all(line.endswith(": not answered yet") for line in lines), (name, index + 1, lines)


def test_the_checks_see_each_kind_of_problem(lab, notebook_tab):
    # Its broken widget never renders: a short grace is enough to see that.
    cells, found = _run(lab, notebook_tab, "browser/broken_notebook.ipynb", widget_grace=2)
    report = "reported:\n  " + "\n  ".join(found) + "\nexpected (in this order):\n  " + "\n  ".join(map(str, BROKEN))
    assert len(found) == len(BROKEN), report
    for line, parts in zip(found, BROKEN):
        assert all(part in line for part in parts), report
    skipped = [s["name"] for s in cells[2].reports[0].stages if s["status"] == "skipped"]
    assert skipped, "the failed passes stage should leave later stages skipped (and unreported)"


def _run(lab, tab, path: str, widget_grace: float = WIDGET_GRACE_S) -> tuple[list, list[str]]:
    """Open the copy of the notebook at `path` (under the work folder) in the loaded
    JupyterLab, as a double click in its file browser would, and run all its cells; its
    cells as seen and the problems found."""
    tab.evaluate("path => window.jupyterapp.commands.execute('docmanager:open', {path})", path)
    cells = run_all_cells(lab, tab, widget_grace=widget_grace)
    return cells, problems(cells, lab.work / path)
