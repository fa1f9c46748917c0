"""What the whole test suite shares: its options, a home of its own, its share of the CPUs,
and the `hosts` parametrization.

- `--campaign` (registered here, at the root, so that `pytest tests --campaign` works as
  well as `pytest tests/reliability --campaign`).
- A home of its own: the session (and every process it starts: pytest-xdist's workers,
  Jupyter, its kernels, Chromium) sees a temporary folder as HOME and XDG_CACHE_HOME, so the
  library's cache, Jupyter's runtime files and IPython's profile go there, never into the
  user's home (tests/test_own_home.py holds that). At the end the real home is searched:
  files changed there during the run are listed (a test, or another program meanwhile).
- Under pytest-xdist each worker takes its share of the CPUs (backend/cpus.share_cpus), so
  that the kernels' threads and LLVM's workers of all of them together fit the machine.
- Tests marked `hosts` run as each CPU of tests/hosts.py this machine can run code for (and
  as this machine where it cannot run one of them; --hosts=this: as this machine only); the
  summary says which ran. `--as-cpu NAME` runs every test as one of them.
"""

from __future__ import annotations

import atexit
import math
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

_REAL_HOME = Path.home()
_OWN_HOME_VARIABLE = "HLOSCOPE_TEST_HOME"  # set by the first process; its workers inherit it


def pytest_addoption(parser):
    parser.addoption(
        "--campaign",
        action="store_true",
        default=False,
        help="reliability tests: run a long fuzzing campaign (thousands of hypothesis examples)",
    )
    parser.addoption(
        "--as-cpu",
        default="",
        help="run every test as this CPU of tests/hosts.py (generic, avx2, avx512): programs that name no CPU, and "
             "the library, are compiled for it",
    )
    parser.addoption(
        "--hosts",
        choices=("all", "this"),
        default="all",
        help="tests marked hosts: as this machine and every CPU of tests/hosts.py it can run (all), "
             "or as this machine only (this: ./dev quick)",
    )


def pytest_configure(config):
    if not hasattr(config, "workerinput"):  # the first process: make the home its workers share
        home = Path(tempfile.mkdtemp(prefix="hloscope-tests-home-"))
        os.environ[_OWN_HOME_VARIABLE] = str(home)
        # Removed at exit, after everything registered later (IPython writes its history then).
        atexit.register(shutil.rmtree, home, ignore_errors=True)
        config._hloscope_started = time.time()
    home = Path(os.environ[_OWN_HOME_VARIABLE])
    for variable, sub in (("HOME", ""), ("XDG_CACHE_HOME", ".cache"), ("XDG_CONFIG_HOME", ".config"),
                          ("XDG_DATA_HOME", ".local/share"), ("IPYTHONDIR", ".ipython"),
                          ("JUPYTER_CONFIG_DIR", ".jupyter"), ("JUPYTER_DATA_DIR", ".local/share/jupyter"),
                          ("JUPYTER_RUNTIME_DIR", ".local/share/jupyter/runtime"), ("MPLCONFIGDIR", ".config/matplotlib")):
        (home / sub).mkdir(parents=True, exist_ok=True)
        os.environ[variable] = str(home / sub)
    workers = int(config.workerinput["workercount"]) if hasattr(config, "workerinput") else 1
    if workers > 1:
        from hloscope.backend.cpus import share_cpus, usable_cpus

        share_cpus(max(1, usable_cpus() // workers))


# ---- hosts ----

def pytest_generate_tests(metafunc):
    if metafunc.definition.get_closest_marker("hosts") is None:
        return
    from hosts import not_runnable, stand_ins

    # All: as each CPU of hosts.py this machine can run (this machine itself then only where
    # one of them cannot run here: every other test compiles as this machine). This: as it only.
    names = list(stand_ins()) if metafunc.config.getoption("hosts") == "all" else []
    if not names or not_runnable():
        names = ["this", *names]
    metafunc.parametrize("_host", names, indirect=True, ids=lambda name: f"as-{name}")


@pytest.fixture(autouse=True)
def _host(request):
    """Compile as the CPU the test is parametrized with (tests marked `hosts`), else as the
    one --as-cpu names, else as this one."""
    name = getattr(request, "param", "this")
    if name == "this":
        name = request.config.getoption("as_cpu") or "this"
    if name == "this":
        yield
        return
    from hosts import stand_ins
    from hloscope.backend.cpu import jit

    with jit.standing_in_for_host(*stand_ins()[name]):
        yield


# ---- the summary ----

@pytest.hookimpl(tryfirst=True)
def pytest_sessionfinish(session, exitstatus):
    """Look for files written under the real home during the run (the summary names them)."""
    session.config.stash[_WRITTEN] = _written_under_the_real_home(session.config)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if hasattr(config, "workerinput"):
        return
    _summarize_hosts(terminalreporter)
    written = config.stash.get(_WRITTEN, [])
    if written:  # a warning, not a failure: another program of the user's may have written them
        terminalreporter.write_sep("!", f"{len(written)} file(s) under the home folder {_REAL_HOME} changed during "
                                        "the run: by a test, or by something else running meanwhile")
        for path in written[:20]:
            terminalreporter.write_line(f"  {path}")


_WRITTEN = pytest.StashKey[list]()


def _summarize_hosts(reporter) -> None:
    """Which CPUs the `hosts` tests ran as (passed or failed), and why any other did not."""
    from hosts import not_runnable, stand_ins

    as_cpu = reporter.config.getoption("as_cpu")
    if as_cpu:
        reporter.write_sep("-", f"every test compiled as {as_cpu} ({' '.join(stand_ins()[as_cpu]).strip()}), --as-cpu")
    reports = reporter.stats.get("passed", []) + reporter.stats.get("failed", [])
    counts = {name: sum(1 for r in reports if f"as-{name}]" in r.nodeid or f"as-{name}-" in r.nodeid)
              for name in ["this", *stand_ins()]}
    if not any(counts.values()):
        return
    why_not = {name: "this machine cannot run its code" for name in not_runnable()}
    if reporter.config.getoption("hosts") == "this":
        why_not.update({name: "--hosts=this" for name in stand_ins()})
    reporter.write_sep("-", "numerically sensitive tests (marked hosts), by the CPU they compiled for")
    reporter.write_line("ran as: " + ", ".join(f"{name} {count}" for name, count in counts.items() if count)
                        + "".join(f"; not as {name} ({why})" for name, why in why_not.items()))


def _written_under_the_real_home(config) -> list[Path]:
    """Files under the real home changed since the session started, the checkout (pytest's
    and Python's own caches live there) left out. `find` where there is one: a home holds
    hundreds of thousands of files (Python and toolchain installs), which it walks in a
    fraction of the time Python takes."""
    started = getattr(config, "_hloscope_started", None)
    if started is None or not _REAL_HOME.is_dir():
        return []
    checkout = Path(config.rootpath).resolve()
    find = shutil.which("find")  # whole seconds: nothing runs in the session's first one but collection
    if find:
        listed = subprocess.run([find, str(_REAL_HOME), "-xdev", "-path", str(checkout), "-prune", "-o", "-type", "f",
                                 "-newermt", f"@{math.ceil(started)}", "-print"], capture_output=True, text=True)
        return [Path(line) for line in listed.stdout.splitlines() if line]
    written = []
    for folder, dirs, files in os.walk(_REAL_HOME):
        here = Path(folder)
        dirs[:] = [d for d in dirs if not (here / d).is_symlink() and (here / d).resolve() != checkout]
        written += [here / name for name in files if _modified_since(here / name, started)]
    return written


def _modified_since(path: Path, started: float) -> bool:
    try:
        return path.lstat().st_mtime >= started
    except OSError:
        return False
