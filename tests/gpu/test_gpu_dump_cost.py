"""`hloscope dump --backend gpu`: thunks.txt and cost.json beside the PTX."""

import json

import pytest

from hloscope.cost import GPUS
from gpu_helpers import compile_gpu
from test_gpu_streams import TWO_DOTS


def test_dump_has_the_thunks_on_their_streams_and_the_costs(tmp_path):
    report = compile_gpu(TWO_DOTS, ptxas=False).report
    report.dump(tmp_path)
    lines = (tmp_path / "thunks.txt").read_text().splitlines()
    assert lines[0].startswith(f"# 3 thunks on 2 stream(s) (at most 4); device arena {report.arena_bytes:,} B")
    assert [line.split()[2] for line in lines[1:]] == [k.name for k in report.kernels]  # launch order
    assert all("stream=" in line and "waits=[" in line and "buffers=[" in line for line in lines[1:])

    cost = json.loads((tmp_path / "cost.json").read_text())
    instructions = {i["name"]: i for i in cost["instructions"]}
    assert set(instructions) >= {i.name for _, i in report.module.all_instructions()}  # fused ones too
    assert instructions["x"]["flops"] == 2 * 64 * 32 * 128
    assert instructions["x"]["bytes_read"] == (64 * 128 + 128 * 32) * 4
    assert instructions["x"]["bytes_written"] == 64 * 32 * 4
    kernels = {k["name"]: k for k in cost["kernels"]}
    assert list(kernels) == [k.name for k in report.kernels]
    dot = kernels[report.kernel("x").name]
    assert set(dot["estimates"]) == {"A100", "CPU", "H100", "H200"}
    bytes_moved = dot["bytes_read"] + dot["bytes_written"]
    h200 = GPUS["H200"]
    assert dot["estimates"]["H200"] == pytest.approx(max(bytes_moved / h200.bandwidth, dot["flops"] / h200.fp32_flops)
                                                     + 1e-6)


def test_a_cpu_dump_has_no_gpu_files(tmp_path):
    from hloscope.compiler import compile as compile_module

    compile_module(TWO_DOTS).report.dump(tmp_path)
    assert not {"thunks.txt", "cost.json", "kernels.sass"} & {p.name for p in tmp_path.iterdir()}
