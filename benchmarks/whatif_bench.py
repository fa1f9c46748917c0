"""What-if experiments on softmax: the two delta tables of issue 23's closing note, and the
sweep of fusion on/off across sizes (run time against bytes moved) saved as an SVG.

    .venv/bin/python benchmarks/whatif_bench.py                 # sizes 256..4096, assets/whatif_sweep.svg
    .venv/bin/python benchmarks/whatif_bench.py --quick         # sizes 256..1024

Printed: the delta table of fusion off (both fusion passes) on a 4096x1024 softmax, the delta
table of LLVM -O0 on the same program (the passes reused, only LLVM reran), then one line per
size with the ratio unfused/fused of bytes moved and of the measured run. The goal: unfused
moves more bytes and runs slower at every size past the caches (ratios above 1).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import numpy as np  # noqa: E402

import hloscope  # noqa: E402

FUSION_OFF: dict[str, Any] = {"disable": ["fusion", "multi_output_fusion"]}


def softmax(x):
    m = x.max(axis=1, keepdims=True)
    e = np.exp(x - m)
    return e / e.sum(axis=1, keepdims=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "assets", "whatif_sweep.svg"))
    args = parser.parse_args()

    x = np.random.default_rng(0).standard_normal((4096, 1024)).astype(np.float32)
    module, _, _ = hloscope.jit(softmax).specialize(x)
    exe = hloscope.compile(module)
    experiments: list[dict[str, Any]] = [FUSION_OFF, {"opt_level": 0}]
    for changes in experiments:
        w = hloscope.whatif(exe, **changes)
        print(f"softmax 4096x1024, what if {w.changes.describe()}; reused: {', '.join(w.reused)}")
        print(w.table(), end="\n\n")

    sizes = [256, 512, 1024] if args.quick else [256, 512, 1024, 2048, 4096]
    s = hloscope.sweep(softmax, sizes=sizes, changes=[FUSION_OFF], repeats=7)
    print(s.text(), end="\n\n")
    for fused, unfused in zip(s.points[0::2], s.points[1::2]):
        run = (unfused.run_seconds or 0) / (fused.run_seconds or 1)
        print(f"{fused.size:>10}: unfused/fused bytes x{unfused.bytes_moved / fused.bytes_moved:.2f}, run x{run:.2f}")
    path = s.save(args.out)
    print(f"\nwrote {os.path.relpath(path)}")


if __name__ == "__main__":
    main()
