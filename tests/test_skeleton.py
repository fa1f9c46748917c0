"""The project's frame: the one-command setup, CI, packaging, and the benchmark generator."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _last_line(path: Path) -> str:
    return path.read_text().rstrip("\n").splitlines()[-1]


def test_ci_runs_the_command_the_readme_shows():
    last = _last_line(ROOT / ".ci" / "run")
    assert last == "./dev test"
    assert last in (ROOT / "README.md").read_text()


def test_ci_script_is_strict_bash():
    text = (ROOT / ".ci" / "run").read_text()
    assert text.startswith("#!/usr/bin/env bash")
    assert "set -euo pipefail" in text


def test_dev_script_is_executable_and_offers_test_and_lab():
    dev = ROOT / "dev"
    assert os.access(dev, os.X_OK)
    text = dev.read_text()
    assert "test)" in text and "lab)" in text
    readme = (ROOT / "README.md").read_text()
    assert "./dev lab" in readme and "./dev test" in readme


def test_pyproject_declares_the_dependencies():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    deps = " ".join(project["dependencies"])
    for name in ("numpy", "ml_dtypes", "llvmlite", "ipywidgets"):
        assert name in deps
    extras = project["optional-dependencies"]
    for name in ("pytest", "hypothesis", "nbclient", "nbformat", "ipykernel"):
        assert name in " ".join(extras["dev"])
    assert "jupyterlab" in " ".join(extras["notebook"])
    assert project["requires-python"] == ">=3.10"


def test_package_imports_with_its_public_api():
    import hloscope
    import hloscope.viz

    for name in ("parse_hlo", "evaluate", "HloParseError", "HloModule"):
        assert hasattr(hloscope, name), name
    assert callable(hloscope.viz.module_html)


def test_project_files_name_no_machine_paths():
    files = [ROOT / "README.md", ROOT / "pyproject.toml", ROOT / "dev", ROOT / ".ci" / "run"]
    files += sorted((ROOT / "notebooks").glob("*.ipynb"))
    for path in files:
        text = path.read_text()
        # Spelled in pieces so that this file does not name a machine path itself.
        for marker in ("/" + d + "/" for d in ("work", "root", "home", "tmp")):
            assert marker not in text, f"{path.name} mentions {marker}"


def _load_generator():
    spec = importlib.util.spec_from_file_location("generate", ROOT / "benchmarks" / "generate.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("n", [8, 13, 300])
def test_benchmark_generator_makes_a_valid_module_of_exactly_n_instructions(n):
    import hloscope

    module = hloscope.parse_hlo(_load_generator().make_chain_module(n))
    assert module.instruction_count() == n
    module.verify()


def test_benchmark_generator_mixes_reductions_into_the_chain():
    import hloscope

    module = hloscope.parse_hlo(_load_generator().make_chain_module(1000))
    opcodes = [inst.opcode for _, inst in module.all_instructions()]
    assert opcodes.count("reduce") >= 3 and "broadcast" in opcodes and "constant" in opcodes


def test_test_file_names_are_unique():
    """pytest imports test files by basename (rootdir mode): two with one name break collection."""
    names = [p.name for p in ROOT.joinpath("tests").rglob("*.py") if p.name != "__init__.py"]
    duplicates = sorted({n for n in names if names.count(n) > 1} - {"conftest.py"})
    assert not duplicates, f"test files share a name: {duplicates}"
