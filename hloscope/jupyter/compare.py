"""Running the compiled function, checking it, and timing it against numpy and XLA (jax).

    timing = time_call("hloscope", lambda: exe(*args))
    check = compare_outputs("evaluator", expected, actual)
    runner = jax_runner(module)          # XLA:CPU on the same HLO, or a message why not

Timings are the median of as many calls as fit in a small budget (at least one), so a cell
stays interactive. The jax comparison compiles the *same HLO text* with XLA, through
jaxlib's HLO parser: hloscope's compiler against XLA's on one program.
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import dataclass

import numpy as np

TIME_BUDGET = 0.12  # seconds per timed function
MAX_RUNS = 200


@dataclass(frozen=True)
class Timing:
    name: str
    seconds: float | None  # None when it could not run
    runs: int = 0
    note: str = ""


@dataclass(frozen=True)
class Check:
    """Whether `name`'s outputs match hloscope's: max abs error and allclose."""

    name: str
    ok: bool
    max_abs_error: float | None
    note: str = ""


def time_call(name: str, fn, budget: float = TIME_BUDGET, max_runs: int = MAX_RUNS, note: str = "") -> Timing:
    """Median seconds per call of fn() (called once to warm up, then within `budget`)."""
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - a comparison that cannot run is reported, not raised
        return Timing(name, None, 0, f"failed: {type(e).__name__}: {e}")
    times = []
    deadline = time.perf_counter() + budget
    while len(times) < max_runs and (not times or time.perf_counter() < deadline):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return Timing(name, statistics.median(times), len(times), note)


def flat_outputs(value) -> list[np.ndarray]:
    """Arrays of a result, nested tuples/lists/dicts flattened in order."""
    if isinstance(value, dict):
        return [a for k in sorted(value) for a in flat_outputs(value[k])]
    if isinstance(value, (tuple, list)):
        return [a for v in value for a in flat_outputs(v)]
    return [np.asarray(value)]


def tolerance(dtype) -> tuple[float, float]:
    """(rtol, atol) for comparing results of this dtype computed two different ways."""
    dtype = np.dtype(dtype)
    if dtype.kind in "biu":
        return 0.0, 0.0
    if dtype.itemsize <= 2:  # f16, bf16
        return 2e-2, 2e-2
    if dtype == np.float64:
        return 1e-9, 1e-12
    return 2e-4, 2e-5


def compare_outputs(name: str, expected, actual) -> Check:
    """Do `expected` (from `name`) and hloscope's `actual` outputs agree?"""
    exp, act = flat_outputs(expected), flat_outputs(actual)
    if len(exp) != len(act):
        return Check(name, False, None, f"{len(exp)} outputs vs hloscope's {len(act)}")
    worst, ok = 0.0, True
    for i, (e, a) in enumerate(zip(exp, act)):
        if e.shape != a.shape:
            return Check(name, False, None, f"output {i}: shape {e.shape} vs hloscope's {a.shape}")
        rtol, atol = tolerance(a.dtype)
        e64, a64 = (x if x.dtype.kind == "c" else x.astype(np.float64) for x in (e, a))
        if e.size:
            worst = max(worst, float(np.nanmax(np.abs(e64 - a64))) if np.isfinite(e64).any() else 0.0)
        ok &= bool(np.allclose(a64, e64, rtol=rtol, atol=atol, equal_nan=True))
    return Check(name, ok, worst)


def jax_wanted(compare) -> bool:
    """jax is compared when asked for, or by default when it is already imported (importing
    it costs over a second, too much for a default in an interactive cell)."""
    if compare is None:
        return "jax" in sys.modules
    return "jax" in compare


def numpy_wanted(compare) -> bool:
    return compare is None or "numpy" in compare


def jax_runner(module):
    """(XlaRunner, "") for XLA:CPU compiling the same HLO text, or (None, why not)."""
    try:
        import jax
        from jax._src import xla_bridge
        from jax._src.lib import xla_client as xc
    except ImportError:
        return None, "jax is not installed (pip install 'hloscope[jax]')"
    try:
        hlo = xc.hlo.hlo_module_from_text(module.to_text())
        mlir = xc._xla.mlir.hlo_to_stablehlo(hlo.as_serialized_hlo_module_proto())
        backend = xla_bridge.get_backend("cpu")
        exe = backend.compile_and_load(mlir, xc.DeviceList(tuple(backend.devices()[:1])), xc.CompileOptions())
    except Exception as e:  # noqa: BLE001 - jaxlib's private API moves between versions
        return None, f"XLA could not compile the module here: {type(e).__name__}: {str(e)[:200]}"
    return XlaRunner(jax, exe), ""


class XlaRunner:
    """An XLA executable: `put` the arguments on the device once, then `execute` them (what
    is timed, like hloscope's call), `outputs` to read the results back as numpy."""

    def __init__(self, jax, exe):
        self.jax, self.exe = jax, exe

    def put(self, args) -> list:
        return [self.jax.device_put(a) for a in args]

    def execute(self, buffers) -> list:
        outs = self.exe.execute_sharded(buffers).disassemble_into_single_device_arrays()
        for o in outs:
            o[0].block_until_ready()
        return outs

    def outputs(self, args) -> list[np.ndarray]:
        return [np.asarray(o[0]) for o in self.execute(self.put(args))]
