"""GPU benchmark: the CPU benchmark's workloads as hloscope GPU kernels, timed with CUDA events.

    .venv/bin/python benchmarks/gpu_bench.py                  # all workloads (needs a GPU)
    .venv/bin/python benchmarks/gpu_bench.py --quick softmax  # fewer repetitions, some workloads
    .venv/bin/python benchmarks/gpu_bench.py --compile-only   # no GPU needed: kernels, launches, ptxas

Each workload is a jax function lowered to HLO text on the CPU (benchmarks/cpu_bench.py's
WORKLOADS), compiled by hloscope for the GPU and checked against numpy. Every kernel is then
launched `reps` times in a row between two CUDA events (GpuExecutable.profile), so the times
are device times without Python or copies. The memory-bound workloads report the bandwidth an
ideal kernel would need (bytes each input read once and each output written once, divided by
the time) against the device's peak: 2 x memory clock x bus width, from cuDeviceGetAttribute
(or NVML when the driver does not say). Dots report TFLOP/s. Last, the cost of one iteration
of a host-driven while loop with a tiny body (condition kernel, predicate read back, body
kernels, state copies). On a machine without an NVIDIA GPU and cuda-python it says so and
exits 0.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
sys.path.insert(0, HERE)

from hloscope.backend.gpu.cuda import CudaDevice, gpu_available  # noqa: E402
from hloscope.backend.gpu.executable import GpuExecutable  # noqa: E402

FLOPS = {"matmul": 2 * 1024**3, "mlp": 2 * (256 * 1024 * 4096 * 2)}


def peak_bandwidth(device) -> tuple[float | None, str]:
    """(bytes/s, where the number came from)."""
    peak = device.peak_bandwidth()
    if peak:
        return peak, "cuDeviceGetAttribute"
    try:
        import pynvml  # pyright: ignore[reportMissingImports]  (optional: NVIDIA's management library)

        pynvml.nvmlInit()
        handle = pynvml.nvmlDeviceGetHandleByIndex(0)
        mhz = pynvml.nvmlDeviceGetMaxClockInfo(handle, pynvml.NVML_CLOCK_MEM)
        bits = pynvml.nvmlDeviceGetMemoryBusWidth(handle)
        return 2.0 * mhz * 1e6 * bits / 8, "NVML"
    except Exception:  # NVML is optional; say the peak is unknown instead
        return None, "unknown"


def compile_workload(name: str, sm: str):
    """(GpuExecutable, numpy inputs, numpy fn, ideal bytes) of one workload."""
    import jax.numpy as jnp
    from cpu_bench import WORKLOADS, hlo_text

    from hloscope.compiler import compile as hs_compile

    jfn, npfn, make, nbytes = WORKLOADS[name]
    args = make()
    exe = hs_compile(hlo_text(jfn, [jnp.asarray(a) for a in args]), backend="gpu", sm=sm)
    assert isinstance(exe, GpuExecutable)
    return exe, args, npfn, nbytes


def describe_kernels(exe) -> None:
    for k in exe.report.kernels:
        usage = f"  {k.ptxas.describe()}" if k.ptxas is not None else ""
        print(f"    {k.name:<34} {k.kind:<11} {k.launch}{usage}")


def compile_only(names, sm: str) -> None:
    for name in names:
        t = time.perf_counter()
        exe, *_ = compile_workload(name, sm)
        print(f"{name}: {len(exe.report.kernels)} kernels, compiled in {(time.perf_counter() - t) * 1e3:.0f} ms; "
              f"{exe.report.ptxas_note}")
        describe_kernels(exe)


def measure(name: str, sm: str, reps: int, peak: float | None) -> dict:
    exe, args, npfn, nbytes = compile_workload(name, sm)
    got, want = exe(*args), npfn(*args)
    assert np.allclose(got, want, rtol=2e-3, atol=2e-3), f"{name}: hloscope's GPU result and numpy disagree"
    kernels = exe.profile(*args, repeat=reps)
    total = sum(ms for _, ms in kernels) / 1e3
    calls = []
    for _ in range(max(3, reps // 4)):
        t = time.perf_counter()
        exe(*args)
        calls.append(time.perf_counter() - t)
    row = {"name": name, "seconds": total, "call": statistics.median(calls), "kernels": []}
    if nbytes:
        row["rate"] = f"{nbytes / total / 1e9:8.1f} GB/s" + (f" {nbytes / total / peak:5.0%}" if peak else "")
    elif name in FLOPS:
        row["rate"] = f"{FLOPS[name] / total / 1e12:8.2f} TFLOP/s"
    for launch, (kname, ms) in zip(exe.program.launches, kernels):
        moved = sum(b.size for b in launch.buffers)
        share = f"{moved / (ms / 1e3) / peak:5.0%}" if peak and ms else ""
        row["kernels"].append((kname, exe.report.kernel(kname).kind, ms, moved / (ms / 1e3) / 1e9 if ms else 0, share))
    return row


def report(rows, device, peak, source, reps) -> None:
    cc = ".".join(map(str, device.compute_capability))
    peak_text = f"{peak / 1e9:.0f} GB/s ({source})" if peak else "unknown"
    print(f"\n{device.name} (compute capability {cc}), peak memory bandwidth {peak_text}, {reps} launches per kernel")
    head = f"{'workload':<10} {'kernels ms':>11} {'call ms':>9}  {'ideal rate (vs peak)':<24}"
    print(head)
    print("-" * len(head))
    for r in rows:
        print(f"{r['name']:<10} {r['seconds'] * 1e3:11.3f} {r['call'] * 1e3:9.3f}  {r.get('rate', ''):<24}")
        for kname, kind, ms, gbs, share in r["kernels"]:
            print(f"    {kname:<34} {kind:<11} {ms * 1e3:9.1f} us {gbs:8.1f} GB/s {share}")
    print("\nkernels ms: the sum of the kernels' device times; call ms: exe(*args) from Python, "
          "copies to and from the device included.")


def loop_iteration_us(sm: str, reps: int) -> tuple[float, str]:
    """(microseconds per iteration, the host program) of a fori_loop over a small vector:
    the call time at 201 iterations minus that at 1, divided by 200."""
    import hloscope

    x = np.ones(1024, np.float32)
    calls, program = {}, ""
    for n in (1, 201):
        fn = hloscope.jit(lambda v, n=n: hloscope.fori_loop(0, n, lambda i, u: u * 0.5 + 1.0, v))
        exe = hloscope.compile(fn.lower(x), backend="gpu", sm=sm, ptxas=False)
        assert np.allclose(exe(x), np.full(1024, 2.0 - 2.0 ** -n, np.float32)), "the loop's result is wrong"
        samples = []
        for _ in range(max(3, reps)):
            t = time.perf_counter()
            exe(x)
            samples.append(time.perf_counter() - t)
        calls[n], program = statistics.median(samples), exe.report.program
    return (calls[201] - calls[1]) / 200 * 1e6, program


def main(argv=None) -> int:
    from cpu_bench import WORKLOADS

    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"workloads (default: all of {', '.join(WORKLOADS)})")
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--compile-only", action="store_true", help="compile and show kernels; no GPU needed")
    parser.add_argument("--sm", default="sm_80", help="GPU architecture of the PTX (default sm_80)")
    opts = parser.parse_args(argv)
    names = opts.names or list(WORKLOADS)
    if opts.compile_only:
        compile_only(names, opts.sm)
        return 0
    ok, why = gpu_available()
    if not ok:
        print(f"gpu_bench: nothing to measure here: {why}.\n"
              "Run it on a machine with an NVIDIA GPU (and `pip install 'hloscope[gpu]'`), "
              "or pass --compile-only to see the kernels.")
        return 0
    device = CudaDevice.get()
    peak, source = peak_bandwidth(device)
    reps = 5 if opts.quick else 20
    rows = [measure(name, opts.sm, reps, peak) for name in names]
    report(rows, device, peak, source, reps)
    per_iteration, program = loop_iteration_us(opts.sm, reps)
    print(f"\nwhile loop (fori_loop over f32[1024]): {per_iteration:.1f} us per iteration, driven by the host:")
    print("\n".join("    " + line for line in program.splitlines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
