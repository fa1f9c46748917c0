"""One JupyterLab server and one Chromium for every browser test, and a fresh page (and
kernel) per notebook. Without Chromium or the notebook packages the tests that need them are
skipped, saying what is missing.

The server's root is a temporary work folder laid out like the checkout, so that the
notebooks run there as they run from notebooks/ (tests/test_notebooks.py runs them with
notebooks/ as the working directory):

    work/notebooks/     a copy of notebooks/ (JupyterLab saves outputs into what it opens)
    work/browser/       a copy of this folder's test notebooks
    work/tests          a link to the checkout's tests/ (tests/corpus, tests/xla_dumps)
    work/hloscope       a link to the package, which hloscope.teaching.repo_path looks for
                        next to tests/corpus when it walks up from the working directory
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from browser_env import CHROMIUM, CHROMIUM_ARGS, TIMEOUT_MS, why_not
from explorer_notebooks import NOTEBOOKS, REPO

HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="session")
def work(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("lab") / "work"
    shutil.copytree(NOTEBOOKS, work / "notebooks", ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    (work / "browser").mkdir()
    for notebook in HERE.glob("*.ipynb"):
        shutil.copy(notebook, work / "browser")
    for name in ("tests", "hloscope"):
        (work / name).symlink_to(REPO / name, target_is_directory=True)
    return work


@pytest.fixture(scope="session")
def lab(work):
    if why_not():
        pytest.skip(why_not())
    from lab_server import JupyterLab  # tests/browser/lab_server.py

    with JupyterLab(work, work.parent / "home") as server:
        server.work = work
        yield server


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    """A Chromium context (one browser process for the whole session)."""
    if why_not():
        pytest.skip(why_not())
    from playwright.sync_api import sync_playwright

    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile), executable_path=str(CHROMIUM), headless=True,
            args=CHROMIUM_ARGS, viewport={"width": 1400, "height": 2000})
        context.set_default_timeout(TIMEOUT_MS)
        try:
            yield context
        finally:
            context.close()


@pytest.fixture
def page(browser, lab):
    """A new tab; afterwards it is closed and the notebook's kernel shut down."""
    tab = browser.new_page()
    try:
        yield tab
    finally:
        tab.close()
        lab.shut_down_kernels()


@pytest.fixture(scope="session")
def lab_tab(browser, lab):
    """One tab with JupyterLab loaded, where notebooks open one after another (`notebook_tab`):
    loading JupyterLab itself takes about two seconds of a 2-core machine each time."""
    tab = browser.new_page()
    tab.goto(lab.url("lab?reset"))
    tab.wait_for_function("() => window.jupyterapp !== undefined")
    tab.evaluate("() => window.jupyterapp.restored")
    try:
        yield tab
    finally:
        tab.close()


@pytest.fixture
def notebook_tab(lab_tab, lab):
    """The loaded JupyterLab tab; afterwards every document in it is closed (unsaved, as
    JupyterLab would after "discard") and its kernels shut down."""
    try:
        yield lab_tab
    finally:
        lab_tab.evaluate(CLOSE_ALL_JS)
        lab.shut_down_kernels()


CLOSE_ALL_JS = """() => {
  for (const widget of [...window.jupyterapp.shell.widgets('main')]) {
    if (widget.context) widget.context.model.dirty = false;
    widget.dispose();
  }
}"""
