"""benchmarks/generate.py's module generators, loaded by path (benchmarks/ is not a package):
make_chain_module(n) and make_branchy_module(n), HLO text of n instructions."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_PATH = Path(__file__).resolve().parents[2] / "benchmarks" / "generate.py"
_spec = importlib.util.spec_from_file_location("hloscope_benchmark_generate", _PATH)
_module = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_module)

make_chain_module = _module.make_chain_module
make_branchy_module = _module.make_branchy_module
