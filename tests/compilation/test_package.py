"""`hloscope.compilation` names its public parts itself: `from hloscope.compilation import
Compilation` works, in a fresh interpreter too (where an import cycle would show)."""

from __future__ import annotations

import subprocess
import sys

import hloscope.compilation as compilation
from hloscope.compilation import executable, record, sources, stages, target


def test_the_package_exports_the_records_the_driver_and_the_sources():
    assert compilation.Compilation is record.Compilation
    assert compilation.StageRecord is record.StageRecord
    assert compilation.Kernel is record.Kernel
    assert compilation.Stage is stages.Stage
    assert compilation.run_stages is stages.run_stages
    assert compilation.Target is target.Target
    assert compilation.Executable is executable.Executable
    assert (compilation.HloText, compilation.GivenModule, compilation.TracedCall) == (
        sources.HloText, sources.GivenModule, sources.TracedCall)
    assert all(hasattr(compilation, name) for name in compilation.__all__)


def test_importing_the_package_first_makes_no_cycle():
    done = subprocess.run([sys.executable, "-c", "from hloscope.compilation import Compilation, Target, run_stages"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
