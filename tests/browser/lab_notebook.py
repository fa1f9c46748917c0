"""A notebook run in JupyterLab the way a user runs it (Run > Run All Cells), and what the
user then sees that is wrong.

    page.goto(lab.url("lab/tree/notebooks/00_explorer_tour.ipynb?reset"))
    cells = run_all_cells(lab, page)          # until every cell ran and every explorer is complete
    problems(cells, notebook_path)            # [] when all is well, else one line per problem

Wrong is: an error or stderr output, a code cell that was not run, a widget that never
rendered ("Loading widget..." or "Error displaying widget"), and an hloscope explorer (or
static report) with a failed stage or a view that failed. A skipped stage is not wrong: the
GPU run stage is skipped on a machine without a GPU. Everything is read from the page, not
from the kernel, because a failed stage lives inside the widget and no cell raises.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from explorer_notebooks import cell_sources

RUN_TIMEOUT_S = 240  # the tour takes ~10 s on 2 cores; a hang fails naming what was still busy
SETTLE_S = 0.5  # quiet this long (kernel idle, nothing pending) before the page is read
WIDGET_GRACE_S = 10  # a widget view may render a little after its kernel went idle
ERROR_MIME_TYPES = ("application/vnd.jupyter.stderr", "application/vnd.jupyter.error")
PLACEHOLDERS = ("Loading widget", "Error displaying widget")

# One pass over the notebook's cells in the page. JupyterLab renders an error output (a
# traceback) with the stderr mime type; the error one is there in case an extension
# renders it itself. textContent, not innerText: hidden tabs still count.
READ_CELLS_JS = """
([errorTypes, placeholders]) => {
  const text = el => (el ? el.textContent : '').trim();
  const stages = overview => [...(overview ? overview.querySelectorAll('tr[class*="hs-stage-"]') : [])]
    .map(tr => ({name: text(tr.cells[0]), status: [...tr.classList].find(c => c.startsWith('hs-stage-')).slice(9),
                 note: text(tr.cells[3])}));
  const failures = overview => [...(overview ? overview.querySelectorAll('pre.hs-bad') : [])].map(text);
  const views = explorer => {
    const contents = explorer.querySelector('.widget-tab-contents');
    const labels = [...explorer.querySelectorAll('.lm-TabBar-tabLabel')].map(text);
    return [...explorer.querySelectorAll('pre')].filter(p => text(p).startsWith('this view failed')).map(p => {
      let panel = p;
      while (panel.parentElement && panel.parentElement !== contents) panel = panel.parentElement;
      const index = contents ? [...contents.children].indexOf(panel) : -1;
      return {tab: index >= 0 && index < labels.length ? labels[index] : '?', text: text(p)};
    });
  };
  const report = (kind, overview, explorer) => ({
    kind, title: text(overview && overview.querySelector('h3')), stages: stages(overview),
    failures: failures(overview), views: explorer ? views(explorer) : []});
  return [...document.querySelectorAll('.jp-NotebookPanel .jp-Cell')].map(cell => {
    const outputs = [...cell.querySelectorAll('.jp-OutputArea-output')];
    const explorers = [...cell.querySelectorAll('.hloscope-explorer')];
    const loose = [...cell.querySelectorAll('.hs-overview')].filter(o => !o.closest('.hloscope-explorer'));
    return {
      code: cell.classList.contains('jp-CodeCell'),
      prompt: text(cell.querySelector('.jp-InputPrompt')),
      errors: outputs.filter(o => errorTypes.includes(o.dataset.mimeType)).map(text),
      stdout: outputs.filter(o => o.dataset.mimeType === 'application/vnd.jupyter.stdout').map(text).join('\\n'),
      placeholders: outputs.map(text).filter(t => placeholders.some(p => t.startsWith(p))),
      reports: [...explorers.map(e => report('explorer', e.querySelector('.hs-overview'), e)),
                ...loose.map(o => report('report', o, null))],
    };
  });
}
"""


@dataclass
class Report:
    """An explorer (or a static report) as the page shows it."""

    kind: str
    title: str
    stages: list[dict]
    failures: list[str]
    views: list[dict]

    def busy(self) -> list[dict]:
        return [s for s in self.stages if s["status"] in ("pending", "running")]


@dataclass
class Cell:
    """One notebook cell as the page shows it."""

    code: bool
    prompt: str
    errors: list[str]
    placeholders: list[str]
    stdout: str = ""
    reports: list[Report] = field(default_factory=list)

    @property
    def running(self) -> bool:
        return "*" in self.prompt

    @property
    def ran(self) -> bool:
        return any(ch.isdigit() for ch in self.prompt)


def read_cells(page) -> list[Cell]:
    """Every cell of the open notebook, with its outputs' errors, widgets and explorers."""
    raw = page.evaluate(READ_CELLS_JS, [list(ERROR_MIME_TYPES), list(PLACEHOLDERS)])
    return [Cell(**{**c, "reports": [Report(**r) for r in c["reports"]]}) for c in raw]


def run_all_cells(lab, page, timeout: float = RUN_TIMEOUT_S, widget_grace: float = WIDGET_GRACE_S) -> list[Cell]:
    """Run > Run All Cells, then wait until no cell is queued or running, the kernel has been
    idle for SETTLE_S and no explorer has a stage pending or running (the explorer may fill
    in after its cell). After `timeout` the cells are returned as they are: problems() then
    names what was still busy. Widgets get `widget_grace` seconds more to replace their
    placeholder."""
    page.wait_for_selector(".jp-NotebookPanel .jp-Cell")
    lab.wait_idle(settle=0.3)  # the kernel has started
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.get_by_text("Run All Cells", exact=True).click()
    deadline, quiet_since = time.monotonic() + timeout, None
    while time.monotonic() < deadline:
        cells = read_cells(page)
        if _finished(cells) and lab.kernels_idle():
            quiet_since = quiet_since or time.monotonic()
            if time.monotonic() - quiet_since >= SETTLE_S:
                return _after_widgets_render(page, widget_grace)
        else:
            quiet_since = None
        time.sleep(0.25)
    return read_cells(page)


def _finished(cells: list[Cell]) -> bool:
    started = any(c.ran for c in cells)
    busy = any(c.running or any(r.busy() for r in c.reports) for c in cells)
    return started and not busy


def _after_widgets_render(page, grace: float) -> list[Cell]:
    deadline = time.monotonic() + grace
    cells = read_cells(page)
    while any(c.placeholders for c in cells) and time.monotonic() < deadline:
        time.sleep(0.25)
        cells = read_cells(page)
    return cells


def problems(cells: list[Cell], notebook: Path) -> list[str]:
    """One line per thing a user would see go wrong, each naming its cell (number and first
    line of source, read from the notebook file) and, inside an explorer, its title."""
    heads = _cell_heads(notebook, len(cells))
    found = []
    for i, cell in enumerate(cells):
        where = f"cell {i + 1} ({heads[i]})"
        found += [f"{where}: error output: {_error_text(text)}" for text in cell.errors]
        found += [f"{where}: a widget never rendered: {_short(text)}" for text in cell.placeholders]
        if cell.running:
            found.append(f"{where}: still queued or running when the test stopped waiting")
        elif cell.code and not cell.ran:
            found.append(f"{where}: was not run")
        for k, report in enumerate(cell.reports):
            found += [f"{where}, {report.kind} {report.title or f'#{k + 1}'!r}: {p}" for p in _report_problems(report)]
    return found


def _report_problems(report: Report) -> list[str]:
    found = []
    for stage in report.stages:
        if stage["status"] == "failed":
            found.append(f"stage {stage['name']!r} failed: {_stage_message(report, stage)}")
        elif stage["status"] in ("pending", "running"):
            found.append(f"stage {stage['name']!r} still {stage['status']} when the test stopped waiting")
    found += [f"view {v['tab']!r} failed: {_last_line(v['text'])}" for v in report.views]
    return found


def _stage_message(report: Report, stage: dict) -> str:
    """The overview's red `<name> failed: <message>` line, else the stage row's note."""
    prefix = f"{stage['name']} failed: "
    full = next((f[len(prefix):] for f in report.failures if f.startswith(prefix)), stage["note"])
    return _short(full)


def _cell_heads(notebook: Path, count: int) -> list[str]:
    heads = [(source.strip().splitlines() or [""])[0] for _, source in cell_sources(notebook)]
    if len(heads) != count:  # the page and the file disagree: name cells by number only
        return ["?"] * count
    return [_short(h, 60) for h in heads]


def _error_text(text: str) -> str:
    """A traceback by its last line (`ValueError: ...`); other stderr text as it is."""
    return _last_line(text) if "Traceback" in text else _short(text)


def _last_line(text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    return _short(lines[-1] if lines else text)


def _short(text: str, limit: int = 400) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
