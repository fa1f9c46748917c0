"""hloscope.xla.capture and compare on the real-model corpus: how long they take, and the
run-time ratio of the two compilers' executables on the same inputs.

    .venv/bin/python benchmarks/xla_lens_bench.py                       # the GPT-2 block and training step
    .venv/bin/python benchmarks/xla_lens_bench.py moe_layer lstm_scan    # any tests/models program

Printed per program: capture seconds (XLA compiling with every pass dumped, plus load),
compare seconds (a second capture, hloscope's compile, matching, timing), XLA's steps,
the fusion match counts, and XLA time / hloscope time (> 1: hloscope's run is faster; XLA's
time is a jax call on arguments already on the device, so it includes jax's dispatch).
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import hloscope  # noqa: E402

DEFAULT = ["gpt2_block_forward", "gpt2_train_step"]


def programs():
    spec = importlib.util.spec_from_file_location("model_programs", ROOT / "tests" / "models" / "programs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.PROGRAMS


def bench(name: str, build) -> str:
    fn, args, _ = build(np.random.default_rng(0))
    start = time.perf_counter()
    record = hloscope.xla.capture(fn, *args)
    captured = time.perf_counter() - start
    start = time.perf_counter()
    comparison = hloscope.xla.compare(fn, *args, time_budget=0.3)
    compared = time.perf_counter() - start
    xla, ours = comparison.timing("XLA"), comparison.timing("hloscope")
    ratio = xla.seconds / ours.seconds if xla and ours and xla.seconds and ours.seconds else float("nan")
    counts = ", ".join(f"{n} {s}" for s, n in comparison.status_counts().items())
    return (f"{name:22s} capture {captured:5.2f} s  compare {compared:5.2f} s  {len(record.records):3d} steps  "
            f"XLA/hloscope run time {ratio:5.2f}x  fusions: {counts}")


def main(names: list[str]) -> None:
    table = programs()
    for name in names or DEFAULT:
        print(bench(name, table[name]), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
