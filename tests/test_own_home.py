"""The suite's processes write nothing into the user's home (tests/conftest.py gives the run a
temporary one): where the library's disk cache, Jupyter and IPython would write is inside it,
in this process and in a process the tests start, as a notebook kernel or the command line is."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hloscope.backend.cpu.fast.library import loader

HOME = Path(os.environ["HLOSCOPE_TEST_HOME"])
PLACES = """
import json, os, pathlib, IPython.paths, jupyter_core.paths
from hloscope.backend.cpu.fast.library import loader
print(json.dumps({"home": str(pathlib.Path.home()), "library": str(loader.cache_directory),
                  "jupyter_runtime": jupyter_core.paths.jupyter_runtime_dir(),
                  "jupyter_data": jupyter_core.paths.jupyter_data_dir(),
                  "jupyter_config": jupyter_core.paths.jupyter_config_dir(),
                  "ipython": IPython.paths.get_ipython_dir()}))
"""


def _inside(path: str | Path) -> bool:
    return Path(path).resolve().is_relative_to(HOME.resolve())


def test_this_process_writes_into_the_runs_own_home():
    assert HOME.is_dir() and Path.home() == HOME
    assert loader.cache_directory is not None and _inside(loader.cache_directory)


def test_a_process_the_tests_start_writes_there_too():
    found = json.loads(subprocess.run([sys.executable, "-c", PLACES], capture_output=True, text=True,
                                      check=True).stdout)
    outside = {name: path for name, path in found.items() if not _inside(path)}
    assert not outside, f"outside the run's home {HOME}: {outside}"
