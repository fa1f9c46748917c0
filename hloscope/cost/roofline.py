"""The roofline: seconds = max(bytes / bandwidth, flops / peak) (+ a kernel launch on a GPU).

A kernel is either waiting on memory or on arithmetic, whichever takes longer; a good kernel
reaches that bound, a poor one is slower. The GPU peaks are datasheet numbers (SXM parts,
dense, no sparsity); the CPU's are this machine's, measured once with numpy (a large max
for read bandwidth, a copy for write bandwidth, a BLAS matmul for flops, exp/sin/tanh for
transcendentals; medians, since a
shared machine's best run is not what a kernel usually gets) and cached on disk in the
user's cache folder, since a measurement costs about a second. `cpu_peaks(remeasure=True)`
measures again (say, after the machine's load changed).

Transcendentals on a GPU run on the special function units: 16 per SM per clock against 128
FP32 lanes doing an FMA (2 flops) each, so a GPU's transcendental rate is its FP32 peak / 16.
The launch overhead is XLA's GPU performance model's (kKernelLaunchOverhead, 1 µs).
"""

from __future__ import annotations

import json
import os
import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from .analysis import Cost

LAUNCH_SECONDS = 1e-6
CACHE_FILE = "cpu_peaks_v2.json"  # v2: read and write bandwidth apart
HALF_TYPES = ("f16", "bf16")


@dataclass(frozen=True)
class Peaks:
    """What one target can do per second."""

    name: str
    bandwidth: float  # bytes/s of main (HBM) memory; read bandwidth where `write_bandwidth` is set
    fp32_flops: float
    fp16_flops: float  # tensor cores on a GPU; the CPU's f32 rate (no faster half path)
    transcendentals: float
    launch_seconds: float = 0.0
    source: str = "datasheet"
    write_bandwidth: float = 0.0  # 0: writes as fast as reads (a GPU's HBM figure covers both)

    def memory_seconds(self, bytes_read: int, bytes_written: int) -> float:
        return bytes_read / self.bandwidth + bytes_written / (self.write_bandwidth or self.bandwidth)

    def describe(self) -> str:
        writes = f" read, {self.write_bandwidth / 1e9:,.0f} GB/s write" if self.write_bandwidth else ""
        return (f"{self.name}: {self.bandwidth / 1e9:,.0f} GB/s{writes}, {self.fp32_flops / 1e12:.3g} TFLOP/s fp32, "
                f"{self.fp16_flops / 1e12:.4g} TFLOP/s fp16 ({self.source})")


def _gpu(name: str, tb_per_s: float, fp32_tflops: float, fp16_tflops: float) -> Peaks:
    return Peaks(name, tb_per_s * 1e12, fp32_tflops * 1e12, fp16_tflops * 1e12, fp32_tflops * 1e12 / 16,
                 LAUNCH_SECONDS, "NVIDIA datasheet, SXM")


GPUS: dict[str, Peaks] = {
    "H200": _gpu("H200", 4.8, 67.0, 989.5),
    "H100": _gpu("H100", 3.35, 67.0, 989.5),
    "A100": _gpu("A100", 2.039, 19.5, 312.0),
}


def estimate(cost: Cost, peaks: Peaks, dtype: str = "f32") -> float:
    """Seconds for `cost` on `peaks`: the slower of memory and arithmetic, plus the launch."""
    flop_rate = peaks.fp16_flops if dtype in HALF_TYPES else peaks.fp32_flops
    memory = peaks.memory_seconds(cost.bytes_read, cost.bytes_written)
    arithmetic = cost.flops / flop_rate + cost.transcendentals / peaks.transcendentals
    return max(memory, arithmetic) + peaks.launch_seconds


def bound(cost: Cost, peaks: Peaks, dtype: str = "f32") -> str:
    """"memory" or "compute": which side of the roofline the cost sits on."""
    flop_rate = peaks.fp16_flops if dtype in HALF_TYPES else peaks.fp32_flops
    arithmetic = cost.flops / flop_rate + cost.transcendentals / peaks.transcendentals
    return "memory" if peaks.memory_seconds(cost.bytes_read, cost.bytes_written) >= arithmetic else "compute"


def targets(cpu: bool = True) -> dict[str, Peaks]:
    """The targets estimates are given for: the GPUs of the table, and this CPU."""
    return {**GPUS, **({"CPU": cpu_peaks()} if cpu else {})}


def estimates(cost: Cost, peaks: dict[str, Peaks], dtype: str = "f32") -> dict[str, float]:
    """{target: seconds} for one cost."""
    return {name: estimate(cost, p, dtype) for name, p in peaks.items()}


# ---- this machine's CPU ----
def cache_folder() -> Path:
    """The user's cache folder for hloscope (XDG's ~/.cache, or %LOCALAPPDATA% on Windows)."""
    base = os.environ.get("XDG_CACHE_HOME") or os.environ.get("LOCALAPPDATA") or str(Path.home() / ".cache")
    return Path(base) / "hloscope"


_measured: dict[str, Peaks] = {}


def cpu_peaks(folder: Path | None = None, remeasure: bool = False) -> Peaks:
    """This CPU's peaks: from the cache file if there is one, else measured (about a second)."""
    path = (folder or cache_folder()) / CACHE_FILE
    key = str(path)
    if key in _measured and not remeasure:
        return _measured[key]
    peaks = None if remeasure else _read(path)
    if peaks is None:
        peaks = measure_cpu()
        _write(path, peaks)
    _measured[key] = peaks
    return peaks


def _read(path: Path) -> Peaks | None:
    try:
        return Peaks(**json.loads(path.read_text()))
    except (OSError, ValueError, TypeError):  # missing or damaged: measure again
        return None


def _write(path: Path, peaks: Peaks) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(asdict(peaks), indent=1, sort_keys=True))
        tmp.replace(path)
    except OSError:  # a read-only home: keep the measurement for this process only
        pass


def _median_seconds(fn, repeats: int) -> float:
    """The median of `repeats` timed calls after a warm one: the steady state a kernel sees
    (page faults and BLAS thread start-up are not), not the luckiest run."""
    fn()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def cores() -> int:
    """The cores this process may run on (what a partitioned CPU kernel uses)."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity else (os.cpu_count() or 1)


def _on_all_cores(pool: ThreadPoolExecutor, fn, src: np.ndarray, dst: np.ndarray | None, parts: int) -> None:
    """fn(src chunk, out=dst chunk) (or fn(src chunk) without dst) on every core at once
    (numpy releases the GIL in its loops), as hloscope's CPU kernels split their outer loop."""
    bounds = np.linspace(0, src.size, parts + 1, dtype=np.int64)
    jobs = [pool.submit(fn, src[a:b]) if dst is None else pool.submit(fn, src[a:b], out=dst[a:b])
            for a, b in zip(bounds[:-1], bounds[1:])]
    for job in jobs:
        job.result()


def measure_cpu() -> Peaks:
    """Read bandwidth (a max over 64 MiB: vectorized, unlike numpy's pairwise sum), write
    bandwidth (what a 64 MiB copy takes beyond its reads: a write also fetches the line it
    fills), sgemm flops, and the rate of numpy's exp, sin and tanh together (one number
    stands for every transcendental), all cores busy."""
    n_cores = cores()
    src = np.ones(16 << 20, np.float32)
    dst = np.empty_like(src)
    small = np.linspace(-3, 3, 1 << 20, dtype=np.float32)
    out = np.empty_like(small)
    functions = (np.exp, np.sin, np.tanh)
    with ThreadPoolExecutor(n_cores) as pool:
        read = _median_seconds(lambda: _on_all_cores(pool, np.maximum.reduce, src, None, n_cores), 9)
        copy = _median_seconds(lambda: _on_all_cores(pool, np.positive, src, dst, n_cores), 9)
        transcendental = sum(_median_seconds(lambda f=f: _on_all_cores(pool, f, small, out, n_cores), 5)
                             for f in functions)
    n = 1024
    a, b = np.ones((n, n), np.float32), np.ones((n, n), np.float32)
    matmul = _median_seconds(lambda: a @ b, 5)  # BLAS uses every core itself
    flops = 2 * n**3 / matmul
    write = max(copy - read, read / 4)  # never faster than 4x the reads: a noisy run's guard
    return Peaks("CPU", src.nbytes / read, flops, flops, len(functions) * small.size / transcendental, 0.0,
                 f"measured on this machine ({n_cores} cores, numpy, medians)", src.nbytes / write)
