"""The cost model as the views show it: cost.json, per-kernel estimate lines, the CPU's
estimate against its measured time, a GPU's measured kernel times against theirs.

    cost_json(c)        {"instructions": [...], "kernels": [...]} (the dump's cost.json)
    kernel_estimates(c) a KernelCost per kernel of the record
    estimate_vs_measured(c)  (estimated s, measured s) for the CPU run, when it ran
    measured_vs_estimated(c, profile)  a GPU run's kernel times next to their estimates
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cost import analyze, targets
from ..cost.analysis import analyze_all
from ..cost.kernels import KernelCost, kernel_costs

if TYPE_CHECKING:  # the record is read, never imported: views sit below it
    from ..compilation.record import Compilation


def kernel_estimates(c: Compilation, cpu: bool = True) -> list[KernelCost]:
    """Each kernel of the record with its cost and estimated seconds per target."""
    module = c.module
    if module is None or not c.kernels:
        return []
    return kernel_costs(module, [(k.name, k.instruction) for k in c.kernels], targets(cpu=cpu))


def cost_json(c: Compilation) -> dict[str, Any]:
    """Every instruction of the optimized module (fused ones too) and every kernel."""
    module = c.module
    if module is None:
        return {"instructions": [], "kernels": []}
    kernels = kernel_costs(module, [(k.name, k.instruction) for k in c.kernels], targets(), analyze(module))
    return {"instructions": [cost.as_dict() for cost in analyze_all(module)],
            "kernels": [k.as_dict() for k in kernels]}


def seconds(s: float) -> str:
    """A duration in the unit that reads best (ns, µs, ms, s)."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if s >= scale:
            return f"{s / scale:.3g} {unit}"
    return f"{s / 1e-9:.3g} ns"


def megabytes(n: float) -> str:
    return f"{n / 1e6:.3g} MB" if n >= 1e5 else f"{n / 1e3:.3g} kB"


def estimate_line(k: KernelCost) -> str:
    """One kernel's work and estimates, e.g. `2.1 MFLOP, 1.05 MB: H200 1.2 µs, ..., CPU 61 µs`."""
    c = k.cost
    work = f"{c.flops / 1e6:.3g} MFLOP" + (f" + {c.transcendentals:,} transc." if c.transcendentals else "")
    times = ", ".join(f"{name} {seconds(s)}" for name, s in k.estimates.items())
    return f"{work}, {megabytes(c.bytes_accessed)}: {times}"


def estimate_vs_measured(c: Compilation) -> tuple[float, float] | None:
    """(the roofline's estimate on this CPU, the run's measured median) for a CPU record
    that was run and timed; None otherwise."""
    if c.target != "cpu" or c.module is None:
        return None
    timing = next((t for t in c.timings if t.name == "hloscope" and t.seconds), None)
    if timing is None or timing.seconds is None:
        return None
    estimated = sum(k.estimates.get("CPU", 0.0) for k in kernel_estimates(c))
    if not estimated:
        return None
    return estimated, timing.seconds


def estimate_vs_measured_line(c: Compilation) -> str:
    pair = estimate_vs_measured(c)
    if pair is None:
        return ""
    est, measured = pair
    return (f"estimated {seconds(est)} vs measured {seconds(measured)} on this CPU "
            f"(measured/estimated {measured / est:.2f}x)")


def measured_vs_estimated(c: Compilation, profile: list[tuple[str, float]], target: str = "H200") -> str:
    """Where a GPU ran it: each kernel's measured time (`exe.profile(...)`: [(kernel, ms)])
    next to its roofline estimate on `target`, and the ratio."""
    estimates = {k.name: k.estimates[target] for k in kernel_estimates(c, cpu=False)}
    lines = [f"{'kernel':<32} {'estimate':>10} {'measured':>10} {'measured/est':>13}"]
    for name, ms in profile:
        est, measured = estimates.get(name, 0.0), ms / 1e3
        ratio = f"{measured / est:12.2f}x" if est else f"{'-':>13}"
        lines.append(f"{name:<32} {seconds(est):>10} {seconds(measured):>10} {ratio}")
    return "\n".join(lines)
