"""Partitioned programs as native code on simulated devices: hloscope.compile_sharded cuts the
per-device program at its collectives, compiles each stretch for the CPU, and run_sharded runs
every device in its own thread, meeting at the collectives. XLA's partitioned modules (right
after its partitioner, and fully optimized) and hloscope's own partition give JAX's shards."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import hloscope
from hloscope.errors import EvaluationError, HloscopeError

HERE = Path(__file__).resolve().parent
MANIFEST = json.loads((HERE / "manifest.json").read_text())
NAMES = sorted(MANIFEST["cases"])


def _numbered(data, prefix: str) -> list[np.ndarray]:
    keys = sorted((k for k in data.files if k.startswith(prefix)), key=lambda k: int(k[len(prefix):]))
    return [data[k] for k in keys]


def _flat(value) -> list[np.ndarray]:
    return [a for v in value for a in _flat(v)] if isinstance(value, tuple) else [np.asarray(value)]


def _assert_jaxs_shards(name: str, got: list) -> None:
    data = np.load(HERE / f"{name}.npz")
    specs = MANIFEST["cases"][name]["outputs"]
    for d in range(4):
        for i, (g, w, spec) in enumerate(zip(_flat(got[d]), _numbered(data, f"d{d}_out"), specs)):
            assert g.shape == w.shape and g.dtype == w.dtype, f"{name} device {d} out{i}"
            np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=spec["rtol"],
                                       atol=spec["atol"], err_msg=f"{name} device {d} out{i}")


def _shards(name: str) -> list[tuple]:
    data = np.load(HERE / f"{name}.npz")
    return [tuple(_numbered(data, f"d{d}_arg")) for d in range(4)]


@pytest.mark.parametrize("stage", ["partitioned", "spmd"])
@pytest.mark.parametrize("name", NAMES)
def test_xlas_partitioned_program_natively_on_4_devices(name, stage):
    exe = hloscope.compile_sharded(hloscope.parse_hlo((HERE / f"{name}.{stage}.hlo").read_text()), cache=False)
    assert exe.devices == 4 and exe.segments
    _assert_jaxs_shards(name, exe.run_sharded(_shards(name)))


def test_hloscopes_own_partition_natively():
    module = hloscope.parse_hlo((HERE / "mlp_2x2.gspmd.pre.hlo").read_text())
    per_device, _ = hloscope.spmd.partition(module)
    _assert_jaxs_shards("mlp_2x2", hloscope.compile_sharded(per_device, cache=False).run_sharded(_shards("mlp_2x2")))


def test_mistakes_are_said():
    module = hloscope.parse_hlo((HERE / "mlp_2x2.spmd.hlo").read_text())
    exe = hloscope.compile_sharded(module, cache=False)
    with pytest.raises(EvaluationError, match="give 4 argument tuples, one per device, not 2"):
        exe.run_sharded(_shards("mlp_2x2")[:2])
    bad = _shards("mlp_2x2")
    bad[1] = (np.zeros((3, 3), np.float32),) + bad[1][1:]
    with pytest.raises(EvaluationError, match="device 1: "):
        exe.run_sharded(bad)
    with pytest.raises(HloscopeError, match=r"exe.run_sharded\(shards\)"):
        exe(*_shards("mlp_2x2")[0])
    as_compiled = hloscope.compile(module, cache=False)  # a partitioned module: the sharded executable
    _assert_jaxs_shards("mlp_2x2", as_compiled.run_sharded(_shards("mlp_2x2")))
