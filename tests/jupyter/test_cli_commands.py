"""The `hloscope` command, run as a separate process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from jupyter_helpers import CUSTOM_CALL_HLO, SCALE_HLO

pytestmark = pytest.mark.large  # each test runs the command line in a process of its own

CORPUS = Path(__file__).resolve().parents[1] / "corpus"
MODEL = """import numpy as np

def layer(x, w):
    return np.tanh(x @ w)
"""


def hloscope(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "hloscope.cli", *map(str, args)], capture_output=True, text=True,
                          timeout=180, cwd=cwd)


def test_report_of_an_hlo_file_with_npz_inputs(tmp_path):
    out = tmp_path / "softmax.html"
    done = hloscope("report", CORPUS / "softmax.hlo", "--inputs", CORPUS / "softmax.npz", "-o", out)
    assert done.returncode == 0, done.stderr
    assert f"wrote {out}" in done.stdout and "matches evaluator" in done.stdout
    page = out.read_text()
    assert 'id="panel-stepper"' in page and 'id="panel-run"' in page


def test_report_of_a_python_function_with_shapes(tmp_path):
    (tmp_path / "model.py").write_text(MODEL)
    done = hloscope("report", "model.py:layer", "--shapes", "f32[16,32], f32[32,8]", "-o", "r.html",
                    "--pipeline", "simplify", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "r.html").exists() and "hloscope: layer" in done.stdout
    assert "matches evaluator, numpy" in done.stdout


def test_report_of_a_stablehlo_file_with_npz_inputs(tmp_path):
    """StableHLO as JAX printed it (an equinox MLP), legalized on the way; its recorded inputs."""
    library = CORPUS.parent / "library_models" / "jax-0.12.0.1"
    out = tmp_path / "eqx.html"
    done = hloscope("report", library / "eqx_mlp.stablehlo.mlir", "--inputs", library / "eqx_mlp.npz", "-o", out)
    assert done.returncode == 0, done.stderr
    assert f"wrote {out}" in done.stdout and "matches evaluator" in done.stdout
    page = out.read_text()
    assert "legalize StableHLO to HLO" in page and "StableHLO MLIR (pretty form)" in page
    assert "StableHLO -&gt; HLO (legalization)" in page and "stablehlo.dot_general" in page


def test_dump(tmp_path):
    (tmp_path / "scale.hlo").write_text(SCALE_HLO)
    done = hloscope("dump", tmp_path / "scale.hlo", "-o", tmp_path / "dump", "--no-run")
    assert done.returncode == 0, done.stderr
    names = {p.name for p in (tmp_path / "dump").iterdir()}
    assert {"records.json", "after_optimizations.txt", "memory_plan.txt", "llvm_ir.ll"} <= names


def test_gpu_dump_has_the_ptx_and_the_host_program(tmp_path):
    (tmp_path / "scale.hlo").write_text(SCALE_HLO)
    done = hloscope("dump", tmp_path / "scale.hlo", "-o", tmp_path / "dump", "--no-run", "--backend", "gpu")
    assert done.returncode == 0, done.stderr
    ptx = (tmp_path / "dump" / "kernels.ptx").read_text()
    program = (tmp_path / "dump" / "gpu_program.txt").read_text()
    assert ".entry" in ptx and all(f".entry {line.split()[1]}(" in ptx for line in program.splitlines())


def test_bad_input_is_one_message_and_status_2(tmp_path):
    (tmp_path / "bad.hlo").write_text("HloModule m\nENTRY e {\n  ROOT p = f32[] parmeter(0)\n}\n")
    done = hloscope("report", tmp_path / "bad.hlo", "-o", tmp_path / "x.html")
    assert done.returncode == 2 and "HloParseError" in done.stderr and "^" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "x.html").exists()
    (tmp_path / "model.py").write_text(MODEL)
    done = hloscope("report", "model.py:layer", "--shapes", "f32[4,5],f32[4,5]", "-o", "x.html", cwd=tmp_path)
    assert done.returncode == 2 and "ShapeError" in done.stderr and "Traceback" not in done.stderr
    done = hloscope("report", "model.py:layer", "-o", "x.html", cwd=tmp_path)
    assert done.returncode == 2 and "--shapes" in done.stderr


def test_a_failed_stage_still_writes_the_report(tmp_path):
    (tmp_path / "cc.hlo").write_text(CUSTOM_CALL_HLO)
    done = hloscope("report", tmp_path / "cc.hlo", "-o", tmp_path / "r.html")
    assert done.returncode == 1 and "stage lower failed" in done.stderr and "custom-call" in done.stderr
    assert (tmp_path / "r.html").exists()


def test_the_console_script_is_declared():
    text = (Path(__file__).resolve().parents[2] / "pyproject.toml").read_text()
    assert 'hloscope = "hloscope.cli:main"' in text


XLA_DUMP = Path(__file__).resolve().parents[1] / "xla_dumps" / "gelu_mlp"


def test_report_and_dump_of_an_xla_dump_folder(tmp_path):
    done = hloscope("report", XLA_DUMP, "-o", tmp_path / "xla.html")
    assert done.returncode == 0, done.stderr
    assert "XLA:CPU dump of jit__p_gelu_mlp" in done.stdout and "25 snapshots" in done.stdout
    assert "jit__p_gelu_mlp" in (tmp_path / "xla.html").read_text()
    done = hloscope("dump", XLA_DUMP, "-o", tmp_path / "dump")
    assert done.returncode == 0, done.stderr
    records = (tmp_path / "dump" / "records.json").read_text()
    assert "adding_copies_to_resolve_interference" in records
    (tmp_path / "empty").mkdir()
    done = hloscope("report", tmp_path / "empty", "-o", tmp_path / "x.html")
    assert done.returncode == 2 and "no XLA module dumps" in done.stderr and not (tmp_path / "x.html").exists()
