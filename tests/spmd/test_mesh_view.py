"""The mesh view (hloscope.mesh_view): the devices, each parameter's tile per device, and each
collective's groups, bytes and modelled time, for XLA's and hloscope's partitioned programs."""

from __future__ import annotations

from pathlib import Path

import hloscope
from hloscope.cost.collectives import Interconnect

HERE = Path(__file__).resolve().parent
ONE_GB = Interconnect("1 GB/s, no latency", 1e9, 0.0)


def test_the_2x2_mlp_its_tiles_and_its_one_all_reduce():
    module = hloscope.parse_hlo((HERE / "mlp_2x2.gspmd.pre.hlo").read_text())
    per_device, log = hloscope.spmd.partition(module)
    view = hloscope.mesh_view(per_device, before=module, log=log, links=(ONE_GB,))
    assert view.devices == 4
    (row,) = view.collectives
    assert row.cost.opcode == "all-reduce" and row.groups == [(0, 1), (2, 3)]
    payload = 4 * 8 * 4  # each device's f32[4,8] partial sum
    assert row.cost.payload == payload and row.cost.sent == payload  # 2 (n-1)/n S with n = 2
    assert abs(view.total_seconds(ONE_GB) - payload / 1e9) < 1e-15
    tiles = {name: (local, sharding.describe() if sharding else "") for name, _, local, sharding in view.arrays}
    assert tiles["xs_0_.1"][0] == "f32[4,16]" and tiles["xs_1_.1"][0] == "f32[16,16]"
    page = view._repr_html_()
    assert "partial sum" in page and "mesh: 4 devices" in page


def test_every_collective_of_xlas_shard_map_program_has_its_cost():
    view = hloscope.mesh_view(hloscope.parse_hlo((HERE / "shard_map_collectives.spmd.hlo").read_text()),
                              links=(ONE_GB,))
    by_op = {row.cost.opcode: row for row in view.collectives}
    assert set(by_op) >= {"all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute"}
    n = 4
    for op, factor in (("all-reduce", 2 * (n - 1) / n), ("all-gather", n - 1), ("reduce-scatter", (n - 1) / n),
                       ("all-to-all", (n - 1) / n), ("collective-permute", 1)):
        row = by_op[op]
        assert row.cost.sent == int(factor * row.cost.payload), op
    assert by_op["collective-permute"].groups == [(0, 1), (1, 2), (2, 3), (3, 0)]


def test_the_graph_shows_global_and_per_device_shapes_of_sharded_values():
    from hloscope.viz.dot_style import node_label

    module = hloscope.parse_hlo((HERE / "mlp_2x2.gspmd.pre.hlo").read_text())
    labels = {p.name: node_label(p) for p in module.entry_computation.parameters}
    assert "f32[8,16]\nper device f32[4,16]" in labels["xs_0_.1"]
    assert "per device f32[16,16]" in labels["xs_1_.1"]
    per_device, _ = hloscope.spmd.partition(module)  # after partitioning: shapes are the device's own
    assert all("per device" not in node_label(i) for i in per_device.entry_computation.instructions)
