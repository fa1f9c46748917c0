"""The explorer in a real browser: JupyterLab + headless Chromium (the system's), driven by
Playwright.

The test opens a copy of explorer_smoke.ipynb in JupyterLab (one server and one browser for
all the browser tests: conftest.py), runs all its cells and checks that nothing a user would
see went wrong (lab_notebook.problems: error outputs, failed stages or views, widgets that
never rendered). Then it checks that the explorer's tabs render, that every stage is done,
steps through passes (the next button, the slider) and sees the graph and the diff change,
and opens the static HTML export the notebook saved and checks its panels. Screenshots go to
a temporary folder; with HLOSCOPE_UPDATE_SCREENSHOTS=1 they replace those in assets/ (the
README shows them), so an ordinary test run leaves the checkout as it was.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

import pytest

from browser_env import TIMEOUT_MS
from lab_notebook import problems, run_all_cells

pytestmark = pytest.mark.browser

HERE = Path(__file__).resolve().parent
ASSETS = (HERE.parents[1] / "assets" if os.environ.get("HLOSCOPE_UPDATE_SCREENSHOTS") == "1"
          else Path(tempfile.mkdtemp(prefix="hloscope-screenshots-")))
SMOKE = "browser/explorer_smoke.ipynb"


def test_explorer_in_jupyterlab_and_the_static_export(lab, page):
    page.goto(lab.url(f"lab/tree/{SMOKE}?reset"))
    cells = run_all_cells(lab, page)
    found = problems(cells, lab.work / SMOKE)
    assert not found, f"{SMOKE}:\n  " + "\n  ".join(found)
    explorer = page.locator(".hloscope-explorer").first
    _check_tabs_and_overview(explorer)
    ASSETS.mkdir(exist_ok=True)
    explorer.screenshot(path=str(ASSETS / "explorer_overview.png"))
    _check_stepper(lab, explorer)
    explorer.screenshot(path=str(ASSETS / "explorer_stepper.png"))
    _check_graph_tab(lab, explorer)
    _check_static_export(lab, page)


def _check_tabs_and_overview(explorer) -> None:
    labels = explorer.locator(".lm-TabBar-tabLabel")
    assert labels.all_inner_texts() == ["Overview", "Pass stepper", "Graph", "Memory", "Source lines", "IR", "Run", "What if"]
    for i in range(6):
        assert labels.nth(i).is_visible()
    overview = explorer.locator(".hs-overview")
    overview.get_by_text("matches evaluator, numpy").first.wait_for()
    rows = overview.locator("tr[class*='hs-stage-']")
    statuses = [(row.locator("td").first.inner_text(), row.get_attribute("class")) for row in rows.all()]
    assert statuses, "the overview shows no stage rows"
    unfinished = [(name, cls) for name, cls in statuses if cls not in ("hs-stage-done", "hs-stage-skipped")]
    assert not unfinished, f"stages neither done nor skipped: {unfinished}"


def _check_stepper(lab, explorer) -> None:
    explorer.locator(".lm-TabBar-tabLabel", has_text="Pass stepper").click()
    stepper = explorer.locator(".widget-tab-contents > .widget-vbox:visible")
    title = stepper.locator(".hs-pass-title h3")
    stepper.locator(".hs-explorer-graph svg").first.wait_for()
    stepper.get_by_text("only passes that changed").click()  # the checkbox's label
    _wait_changed(title, "#0 ")
    lab.wait_idle(settle=0.5)  # as after each step below: the graphs are laid out after the title
    stepper.locator(".hs-explorer-graph svg").nth(1).wait_for()
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
    report = lab.work / Path(SMOKE).parent / "report.html"
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
