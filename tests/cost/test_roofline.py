"""The roofline: max(memory time, arithmetic time) + launch, and the CPU's cached peaks."""

import json

import pytest

from hloscope.cost import GPUS, Cost, Peaks, cpu_peaks, estimate
from hloscope.cost.roofline import bound


def test_memory_bound_kernel_costs_its_bytes_over_bandwidth():
    h200 = GPUS["H200"]
    cost = Cost("add.1", "add", flops=1 << 20, bytes_read=8 << 20, bytes_written=4 << 20)
    assert estimate(cost, h200) == pytest.approx((12 << 20) / 4.8e12 + 1e-6)
    assert bound(cost, h200) == "memory"


def test_compute_bound_dot_costs_its_flops_and_half_types_use_tensor_cores():
    a100 = GPUS["A100"]
    cost = Cost("dot.1", "dot", flops=2 * 4096**3, bytes_read=2 * 4096 * 4096 * 4, bytes_written=4096 * 4096 * 4)
    assert estimate(cost, a100) == pytest.approx(2 * 4096**3 / 19.5e12 + 1e-6)
    assert estimate(cost, a100, "bf16") == pytest.approx(2 * 4096**3 / 312e12 + 1e-6)
    assert bound(cost, a100) == "compute"


def test_cpu_peaks_are_measured_once_and_read_back(tmp_path):
    peaks = cpu_peaks(tmp_path, remeasure=True)
    assert peaks.bandwidth > 1e8 and peaks.write_bandwidth > 1e8
    assert peaks.fp32_flops > 1e8 and peaks.transcendentals > 1e6
    saved = json.loads((tmp_path / "cpu_peaks_v2.json").read_text())
    assert saved["bandwidth"] == peaks.bandwidth
    # a later process reads the file instead of measuring: a planted value comes back
    fake = Peaks("CPU", 1.0, 2.0, 2.0, 3.0, 0.0, "planted")
    other = tmp_path / "other"
    other.mkdir()
    (other / "cpu_peaks_v2.json").write_text(json.dumps(fake.__dict__))
    assert cpu_peaks(other) == fake


def test_reads_and_writes_have_their_own_bandwidth_where_measured_apart():
    cpu = Peaks("CPU", 20e9, 1e11, 1e11, 1e9, 0.0, "made up", write_bandwidth=5e9)
    cost = Cost("add.1", "add", flops=1 << 20, bytes_read=8 << 20, bytes_written=4 << 20)
    assert estimate(cost, cpu) == pytest.approx((8 << 20) / 20e9 + (4 << 20) / 5e9)
