"""The explorer in a real browser: JupyterLab + headless Chromium (the system's), driven by
Playwright.

The test starts JupyterLab on a free port with a token, opens a temporary copy of
explorer_smoke.ipynb, runs all its cells, checks that the explorer's tabs render, steps
through passes (the next button, the slider) and sees the graph and the diff change, then
opens the static HTML export the notebook saved and checks its panels. Screenshots go to a
temporary folder; with HLOSCOPE_UPDATE_SCREENSHOTS=1 they replace those in assets/ (the
README shows them), so an ordinary test run leaves the checkout as it was. Playwright's own
browser download is not used: it drives /usr/bin/chromium (`./dev` installs Debian's
`chromium` where it can).
"""

from __future__ import annotations

import importlib.util
import os
import re
import tempfile
import shutil
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ASSETS = (HERE.parents[1] / "assets" if os.environ.get("HLOSCOPE_UPDATE_SCREENSHOTS") == "1"
          else Path(tempfile.mkdtemp(prefix="hloscope-screenshots-")))
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
MISSING = [name for name in ("playwright", "jupyterlab", "jupyterlab_widgets", "ipywidgets")
           if importlib.util.find_spec(name) is None]

pytestmark = [
    pytest.mark.skipif(bool(MISSING), reason=f"not installed: {', '.join(MISSING)} "
                       "(./dev test installs the dev and notebook extras)"),
    pytest.mark.skipif(not CHROMIUM.exists(), reason=f"no {CHROMIUM}: install Debian's chromium "
                       "(apt-get install chromium; ./dev does it when run as root)"),
]

TIMEOUT_MS = 90_000


@pytest.fixture
def lab(tmp_path):
    from lab_server import JupyterLab  # tests/browser/lab_server.py

    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(HERE / "explorer_smoke.ipynb", work)
    with JupyterLab(work, tmp_path / "home") as server:
        server.work = work
        yield server


@pytest.fixture
def page(tmp_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(tmp_path / "chromium-profile"), executable_path=str(CHROMIUM), headless=True,
            args=CHROMIUM_ARGS, viewport={"width": 1400, "height": 2000})
        context.set_default_timeout(TIMEOUT_MS)
        try:
            yield context.new_page()
        finally:
            context.close()


def test_explorer_in_jupyterlab_and_the_static_export(lab, page):
    _run_all_cells(lab, page)
    explorer = page.locator(".hloscope-explorer").first
    _check_tabs_and_overview(explorer)
    ASSETS.mkdir(exist_ok=True)
    explorer.screenshot(path=str(ASSETS / "explorer_overview.png"))
    _check_stepper(lab, explorer)
    explorer.screenshot(path=str(ASSETS / "explorer_stepper.png"))
    _check_graph_tab(lab, explorer)
    _check_static_export(lab, page)


def _run_all_cells(lab, page) -> None:
    page.goto(lab.url("lab/tree/explorer_smoke.ipynb"))
    page.wait_for_selector(".jp-NotebookPanel .jp-Cell")
    lab.wait_idle()
    page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
    page.get_by_text("Run All Cells", exact=True).click()
    page.wait_for_selector(".hloscope-explorer")
    lab.wait_idle()
    page.wait_for_function(  # every cell has run: each prompt shows an execution count, [n]
        "[...document.querySelectorAll('.jp-InputPrompt')].filter(p => /\\[\\d+\\]/.test(p.textContent)).length >= 3")
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    assert errors.count() == 0, errors.first.inner_text()


def _check_tabs_and_overview(explorer) -> None:
    labels = explorer.locator(".lm-TabBar-tabLabel")
    assert labels.all_inner_texts() == ["Overview", "Pass stepper", "Graph", "Memory", "IR", "Run"]
    for i in range(6):
        assert labels.nth(i).is_visible()
    overview = explorer.locator(".hs-overview")
    overview.get_by_text("matches evaluator, numpy").first.wait_for()
    assert overview.locator("td", has_text="✓ done").count() == 7


def _check_stepper(lab, explorer) -> None:
    explorer.locator(".lm-TabBar-tabLabel", has_text="Pass stepper").click()
    stepper = explorer.locator(".widget-tab-contents > .widget-vbox:visible")
    title = stepper.locator(".hs-pass-title h3")
    stepper.locator(".hs-explorer-graph svg").first.wait_for()
    stepper.get_by_text("only passes that changed").click()  # the checkbox's label
    _wait_changed(title, "#0 ")
    shown = _snapshot(stepper)
    assert "svg" in shown["before"] and "svg" in shown["after"] and "+" in shown["diff"]
    stepper.locator("button", has_text="next").click()
    _wait_changed(title, shown["title"])
    lab.wait_idle(settle=0.5)
    after_next = _snapshot(stepper)
    assert after_next["after"] != shown["after"] and after_next["diff"] != shown["diff"]
    handle = stepper.locator(".widget-slider .noUi-handle").first
    handle.focus()
    handle.press("ArrowRight")
    _wait_changed(title, after_next["title"])
    lab.wait_idle(settle=0.5)
    after_slider = _snapshot(stepper)
    assert after_slider["after"] != after_next["after"] or after_slider["diff"] != after_next["diff"]
    stepper.locator("button", has_text="prev").click()
    _wait_changed(title, after_slider["title"])


def _snapshot(stepper) -> dict:
    graphs = stepper.locator(".hs-explorer-graph")
    return {
        "title": stepper.locator(".hs-pass-title h3").inner_text(),
        "before": graphs.nth(0).inner_html(),
        "after": graphs.nth(1).inner_html() if graphs.count() > 1 else "",
        "diff": stepper.locator(".hs-diff").first.inner_text() if stepper.locator(".hs-diff").count() else "",
    }


def _wait_changed(locator, old: str) -> None:
    """Until the locator's text is no longer `old` (a prefix when it ends with a space).
    A locator, not an element handle: the widget replaces its HTML on every change."""
    from playwright.sync_api import expect

    pattern = re.compile("^" + re.escape(old) + ("" if old.endswith(" ") else "$"))
    expect(locator).not_to_have_text(pattern, timeout=TIMEOUT_MS)


def _check_graph_tab(lab, explorer) -> None:
    explorer.locator(".lm-TabBar-tabLabel", has_text="Graph").click()
    panel = explorer.locator(".widget-tab-contents > .widget-vbox:visible")
    panel.locator(".hs-explorer-graph svg g.hlo-fusion").first.wait_for()
    select = panel.locator("select").first
    options = [o.replace("\xa0", " ") for o in select.locator("option").all_inner_texts()]
    fused = next(i for i, o in enumerate(options) if "[in fused_computation" in o and "(parameter)" not in o)
    select.select_option(index=fused)
    panel.locator(".hs-instruction").get_by_text("fused into").wait_for()
    lab.wait_idle(settle=0.5)
    explorer.screenshot(path=str(ASSETS / "explorer_graph.png"))


def _check_static_export(lab, page) -> None:
    report = lab.work / "report.html"
    assert report.exists(), "the notebook's last cell saves report.html"
    page.goto(report.as_uri())
    for panel in ("overview", "stepper", "graph", "memory", "ir", "run"):
        assert page.locator(f"#panel-{panel}").count() == 1
    page.locator("nav button", has_text="Pass stepper").click()
    name = page.locator("#pass-name")
    name.wait_for()
    before = name.inner_text()
    page.locator("#pass-next").click()
    page.wait_for_function("old => document.querySelector('#pass-name').textContent !== old", arg=before)
    assert page.locator("#graph-after svg").count() >= 1 or page.locator("#graph-after").inner_text()
    page.locator("nav button", has_text="Graph").click()
    assert page.locator("#graph-final svg").count() == 1
    page.screenshot(path=str(ASSETS / "export_graph.png"))
