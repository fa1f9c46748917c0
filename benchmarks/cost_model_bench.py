"""The cost model against the clock: each memory-bound cpu_bench workload's roofline estimate
on this CPU (hloscope.cost: XLA's byte and flop counts over the measured copy bandwidth,
sgemm flops and tanh rate) next to hloscope's measured time, and their ratio.

    .venv/bin/python benchmarks/cost_model_bench.py            # gelu expsin softmax layernorm sum mse
    .venv/bin/python benchmarks/cost_model_bench.py --quick

The goal (issue 20's Done-when): every memory-bound kernel's ratio measured/estimated within
2x (0.5 to 2.0). The CPU's peaks are measured again at the start, under the same load as the
kernels. expsin is compute-bound (a sine and an exponential per element): one transcendental
rate, measured on numpy's exp/sin/tanh, stands for all of them, so its estimate is rougher.
A ratio above 1 means the kernel is slower than the roofline allows; below 1 that it beat
the peak the model assumed (e.g. data still in cache, or more cores than numpy's copy used).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
import jax.numpy as jnp  # noqa: E402
from cpu_bench import WORKLOADS, compile_hloscope, hlo_text, median_time  # noqa: E402

from hloscope.backend.buffers import ArrayStorage  # noqa: E402
from hloscope.backend.gpu.program import KernelLaunch  # noqa: E402
from hloscope.backend.gpu.streams import thunk_sequence  # noqa: E402
from hloscope.cost import cpu_peaks  # noqa: E402
from hloscope.cost.kernels import KernelCost  # noqa: E402
from hloscope.cost.roofline import bound  # noqa: E402
from hloscope.ir.shape import array  # noqa: E402
from hloscope.viz.cost_view import kernel_estimates, seconds  # noqa: E402

MEMORY_BOUND = ("gelu", "expsin", "softmax", "layernorm", "sum", "mse")
GOAL = 2.0


def row(name: str, reps: int) -> tuple[str, float, float, str]:
    jfn, _, make, _ = WORKLOADS[name]
    args = make()
    exe, _ = compile_hloscope(hlo_text(jfn, [jnp.asarray(a) for a in args]))
    kernels = kernel_estimates(exe.report)
    estimated = sum(k.estimates["CPU"] for k in kernels)
    measured = median_time(lambda: exe(*args), reps)
    bounds = ", ".join(sorted({_bound(k) for k in kernels}))
    return name, estimated, measured, bounds


def _bound(k: KernelCost) -> str:
    return bound(k.cost, cpu_peaks(), k.dtype)


def stream_assignment_seconds(n: int = 3000) -> float:
    """Stream assignment of n kernels sharing 50 reused arena slots (hazards everywhere)."""
    shape = array("f32", 16)
    param = ArrayStorage("param", 0, 64, "p", shape)
    steps = tuple(KernelLaunch(f"k{i}", (1, 1, 1), (32, 1, 1), 0,
                               (param, ArrayStorage("arena", 64 * (i % 50), 64, f"k{i}", shape),
                                ArrayStorage("arena", 64 * ((i + 1) % 50), 64, f"k{i + 1}", shape))) for i in range(n))
    start = time.perf_counter()
    thunk_sequence(steps, {f"k{i}": f"k{i}" for i in range(n)})
    return time.perf_counter() - start


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("names", nargs="*", default=list(MEMORY_BOUND))
    p.add_argument("--quick", action="store_true")
    args = p.parse_args()
    reps = 6 if args.quick else 20
    peaks = cpu_peaks(remeasure=True)  # under the same load as the kernels timed below
    print(peaks.describe())
    print(f"transcendentals: {peaks.transcendentals / 1e9:.2f} G/s\n")
    head = f"{'workload':<10} {'estimate':>10} {'measured':>10} {'measured/est':>13}  bound     within {GOAL:g}x"
    print(head)
    print("-" * len(head))
    for name in args.names:
        name, est, measured, bounds = row(name, reps)
        ratio = measured / est
        ok = "yes" if 1 / GOAL <= ratio <= GOAL else "NO"
        print(f"{name:<10} {seconds(est):>10} {seconds(measured):>10} {ratio:>12.2f}x  {bounds:<9} {ok}")
    print(f"\nstream assignment of 3000 kernels: {seconds(stream_assignment_seconds())} (goal < 1 s)")


if __name__ == "__main__":
    main()
