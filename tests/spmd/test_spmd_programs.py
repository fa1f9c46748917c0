"""XLA's partitioned programs run on simulated devices: four programs JAX partitioned over 4
host devices (tests/spmd, made by make_spmd_programs.py with jax 0.12: a data-parallel
training step, a 2x2 data/model-parallel MLP, an FSDP-style step and a shard_map of every
collective), each as XLA wrote it right after its SPMD partitioner and after all its passes,
evaluated by hloscope as 4 devices; each device's outputs are JAX's addressable shards."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import hloscope

HERE = Path(__file__).resolve().parent
MANIFEST = json.loads((HERE / "manifest.json").read_text())
NAMES = sorted(MANIFEST["cases"])
DEVICES = MANIFEST["meta"]["num_devices"]


def _shards(name: str) -> tuple[list[tuple], list[list[np.ndarray]]]:
    data = np.load(HERE / f"{name}.npz")

    def numbered(prefix: str) -> list[np.ndarray]:
        keys = sorted((k for k in data.files if k.startswith(prefix)), key=lambda k: int(k[len(prefix):]))
        return [data[k] for k in keys]

    return ([tuple(numbered(f"d{d}_arg")) for d in range(DEVICES)],
            [numbered(f"d{d}_out") for d in range(DEVICES)])


def _flat(value) -> list[np.ndarray]:
    return [a for v in value for a in _flat(v)] if isinstance(value, tuple) else [np.asarray(value)]


@pytest.mark.parametrize("stage", ["partitioned", "spmd"])
@pytest.mark.parametrize("name", NAMES)
def test_each_simulated_device_gives_jaxs_shard(name, stage):
    module = hloscope.parse_hlo((HERE / f"{name}.{stage}.hlo").read_text())
    module.verify()
    shards, want = _shards(name)
    got = hloscope.evaluate(module, shards)
    specs = MANIFEST["cases"][name]["outputs"]
    assert len(got) == DEVICES
    for d in range(DEVICES):
        outputs = _flat(got[d])
        assert len(outputs) == len(want[d])
        for i, (g, w, spec) in enumerate(zip(outputs, want[d], specs)):
            assert g.shape == w.shape and g.dtype == w.dtype, f"device {d} out{i}"
            np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=spec["rtol"],
                                       atol=spec["atol"], err_msg=f"{name}.{stage} device {d} out{i}")


def test_the_corpus_has_every_collective():
    text = "".join((HERE / f"{n}.spmd.hlo").read_text() for n in NAMES)
    for opcode in ("all-reduce(", "all-gather(", "reduce-scatter(", "all-to-all(", "collective-permute(",
                   "partition-id("):
        assert opcode in text, opcode
