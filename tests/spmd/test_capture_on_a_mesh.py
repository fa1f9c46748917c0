"""From JAX on a forced host mesh (4 CPU devices, in a process of its own): XLA's capture of a
2x2-mesh MLP and of a data-parallel step (hloscope.xla.capture), XLA's SPMD partitioner next to
hloscope's (hloscope.xla.compare_partitioning: the same collectives over the same groups, and
the explorer's mesh tab on XLA's record says so), and XLA's optimized per-device program run
natively on 4 simulated devices to JAX's shards."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("jax")

SCRIPT = Path(__file__).resolve().parent / "mesh_capture_program.py"


@pytest.fixture(scope="module")
def report() -> dict:
    done = subprocess.run([sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_process_has_a_mesh_of_four(report):
    assert report["devices"] == 4


@pytest.mark.parametrize("name", ["mlp_2x2", "dp_step"])
def test_hloscope_partitions_as_xla_and_runs_xlas_program_to_jaxs_shards(report, name):
    result = report[name]
    assert result["partitions"] == "4"
    assert result["counts"] >= 1 and result["differences"] == []
    assert result["max_error"] < 1e-5


@pytest.mark.parametrize("name", ["mlp_2x2", "dp_step"])
def test_the_mesh_tab_of_xlas_record_compares_the_partitioners(report, name):
    assert report[name + "_tab"] == {"applies": True, "same": True, "mesh": True}


@pytest.mark.parametrize("name", ["mlp_2x2", "dp_step"])
def test_the_vs_xla_view_of_a_sharded_program_compares_the_partitioners(report, name):
    assert report[name + "_vs_xla"] is True
