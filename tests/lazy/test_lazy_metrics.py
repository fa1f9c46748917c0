"""lz.metrics() and lz.metrics_report(): the counters torch_xla users look at."""

from __future__ import annotations

import numpy as np

import hloscope.lazy as lz


def test_counters_times_sizes_and_transfers():
    a = lz.tensor(np.ones((4, 4), np.float32))  # 64 bytes to the device
    for _ in range(3):
        b = np.tanh(a @ a)
        lz.mark_step()
    b.numpy()  # 64 bytes back
    m = lz.metrics()
    assert (m["compiles"], m["cache_hits"], m["cache_misses"], m["executions"]) == (1, 2, 1, 3)
    assert m["implicit_syncs"] == 0 and m["sync_lines"] == {}
    assert m["graph_sizes"] == [3, 3, 3]  # data, matmul, tanh
    assert m["transfers_to_device"] == 1 and m["transfers_to_device_bytes"] == 64
    assert m["transfers_from_device"] == 1 and m["transfers_from_device_bytes"] == 64
    assert m["compile_time_s"] > 0 and m["execute_time_s"] > 0


def test_the_report_names_every_counter():
    a = lz.tensor(np.ones(3, np.float32))
    print_me = a * 2.0
    str(print_me)
    report = lz.metrics_report()
    for piece in ("Metric: CompileTime", "Metric: ExecuteTime", "Metric: GraphSize", "TransferToDeviceBytes",
                  "TransferFromDeviceBytes", "Counter: CachedCompile", "Counter: UncachedCompile",
                  "Counter: ImplicitSync", "test_lazy_metrics.py:"):
        assert piece in report, piece
    lz.reset_metrics()
    assert lz.metrics()["executions"] == 0 and lz.steps() == []


def test_a_step_with_nothing_pending_runs_nothing():
    lz.tensor(np.ones(3, np.float32))
    assert lz.mark_step() is None
    assert lz.metrics()["executions"] == 0
