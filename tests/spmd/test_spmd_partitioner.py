"""hloscope's own SPMD partitioner (hloscope/spmd) on the programs JAX partitioned over 4 host
devices: given the pre-partition module (JAX's lowering, with Shardy's marks or GSPMD's), it writes the
per-device program, which the simulated devices run to JAX's own shards; where XLA's
partitioner inserted all-reduces, it inserts the same ones over the same groups, each with
its reason."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import hloscope
from hloscope.errors import NotSupportedError

HERE = Path(__file__).resolve().parent
MANIFEST = json.loads((HERE / "manifest.json").read_text())
JIT_PROGRAMS = ["dp_train_step", "fsdp_step", "mlp_2x2"]  # shard_map's is per-device code already


def _numbered(data, prefix: str) -> list[np.ndarray]:
    keys = sorted((k for k in data.files if k.startswith(prefix)), key=lambda k: int(k[len(prefix):]))
    return [data[k] for k in keys]


def _flat(value) -> list[np.ndarray]:
    return [a for v in value for a in _flat(v)] if isinstance(value, tuple) else [np.asarray(value)]


@pytest.mark.parametrize("lowering", ["pre", "gspmd.pre"])  # JAX's default (Shardy marks) and GSPMD's
@pytest.mark.parametrize("name", JIT_PROGRAMS)
def test_hloscopes_partition_runs_to_jaxs_shards(name, lowering):
    module = hloscope.parse_hlo((HERE / f"{name}.{lowering}.hlo").read_text())
    per_device, log = hloscope.spmd.partition(module)
    per_device.verify()
    assert per_device.attrs.get("num_partitions") is not None
    data = np.load(HERE / f"{name}.npz")
    got = hloscope.evaluate(per_device, [tuple(_numbered(data, f"d{d}_arg")) for d in range(4)])
    specs = MANIFEST["cases"][name]["outputs"]
    for d in range(4):
        for i, (g, w, spec) in enumerate(zip(_flat(got[d]), _numbered(data, f"d{d}_out"), specs)):
            np.testing.assert_allclose(g, w, rtol=spec["rtol"], atol=spec["atol"], err_msg=f"{name} device {d} out{i}")
    collectives = [e for e in log.entries if e.action in ("all-reduce", "all-gather", "slice")]
    assert collectives and all(e.reason for e in collectives)


def _all_reduce_groups(text: str) -> list[str]:
    return sorted(re.findall(r"all-reduce\(.*?replica_groups=(\S+?),", text))


@pytest.mark.parametrize("name", ["dp_train_step", "mlp_2x2"])
def test_the_same_all_reduces_as_xlas_partitioner(name):
    """XLA's module right after its spmd-partitioning pass (before all-reduces are combined)."""
    module = hloscope.parse_hlo((HERE / f"{name}.gspmd.pre.hlo").read_text())
    ours = hloscope.spmd.partition(module)[0]
    xlas = hloscope.parse_hlo((HERE / f"{name}.partitioned.hlo").read_text())

    def groups(m) -> list[tuple]:
        out = []
        for _, inst in m.all_instructions():
            if inst.opcode == "all-reduce":
                out.append(tuple(sorted(inst.attrs["replica_groups"].device_groups())))
        return sorted(out)

    assert groups(ours) == groups(xlas)


def test_the_reason_names_the_split_contracted_dimension():
    module = hloscope.parse_hlo((HERE / "mlp_2x2.gspmd.pre.hlo").read_text())
    _, log = hloscope.spmd.partition(module)
    (reduction,) = [e for e in log.entries if e.action == "all-reduce"]
    assert "contracts dimension [1]" in reduction.reason and "partial sum" in reduction.reason
    assert "{{0,1},{2,3}}" in reduction.reason


def test_what_it_cannot_partition_is_named():
    text = """HloModule m
ENTRY e {
  p = f32[8,4] parameter(0), sharding={devices=[4,1]<=[4]}
  ROOT s = f32[8,4] sort(p), dimensions={0}, to_apply=lt
}
lt {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT c = pred[] compare(a, b), direction=LT
}
"""
    with pytest.raises(NotSupportedError, match=r"spmd-partitioner: sort"):
        hloscope.spmd.partition(hloscope.parse_hlo(text))


def _embedding(table, ids, w):
    return np.tanh(table[ids] @ w)


@pytest.mark.parametrize("params, communication", [
    ({"ids": ("data",)}, {"all-gather"}),  # only to give the output back whole
    ({"table": (None, "model"), "w": ("model", None)}, {"all-reduce"}),  # hidden units split: partial sums
    ({"table": ("model", None)}, {"all-gather"}),  # rows split: the table is gathered
    ({"ids": ("data",), "table": (None, "model")}, {"all-reduce", "all-gather"}),
])
def test_an_embedding_lookup_on_a_mesh(params, communication):
    rng = np.random.default_rng(0)
    args = (rng.standard_normal((16, 8)).astype(np.float32), np.array([1, 3, 5, 7, 0, 2, 4, 15], np.int32),
            rng.standard_normal((8, 4)).astype(np.float32))
    module = hloscope.jit(_embedding).lower(*args)
    sharded = hloscope.spmd.shard(module, {"data": 2, "model": 2}, params, output=())
    per_device, log = hloscope.spmd.partition(sharded)
    want = hloscope.evaluate(module, *args)
    for got in hloscope.evaluate(per_device, hloscope.spmd.shards_of(sharded, args)):
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)
    assert {e.action for e in log.entries if e.action in ("all-reduce", "all-gather")} == communication


@pytest.mark.parametrize("name", JIT_PROGRAMS)
def test_jaxs_pre_partition_module_runs_on_one_device(name):
    """Shardy's marks (custom-call xla.sdy.FuncResultSharding) compute nothing on one device:
    the evaluator passes the value through, and sharding-remover drops them before code generation."""
    module = hloscope.parse_hlo((HERE / f"{name}.pre.hlo").read_text())
    data = np.load(HERE / f"{name}.npz")
    args, want = _numbered(data, "arg"), _numbered(data, "out")
    specs = MANIFEST["cases"][name]["outputs"]
    for got in (hloscope.evaluate(module, *args), hloscope.compile(module, cache=False)(*args)):
        for i, (g, w, spec) in enumerate(zip(_flat(got), want, specs)):
            np.testing.assert_allclose(g, w, rtol=spec["rtol"], atol=spec["atol"], err_msg=f"{name} out{i}")
