"""How much work a program is, and how long it would take: XLA's HloCostAnalysis, then a roofline.

    costs = analyze(module)           # {instruction name: Cost}, fused instructions included
    costs["dot.3"].flops              # 2*M*N*K
    estimate(costs["fusion.1"], H200) # seconds: max(bytes / bandwidth, flops / peak) + launch

analysis.py counts (per instruction, per fusion), roofline.py turns counts into seconds for a
target (datasheet peaks for GPUs, this machine's CPU measured once and cached).
"""

from .analysis import Cost, analyze, module_totals
from .roofline import GPUS, Peaks, cpu_peaks, estimate, estimates, targets

__all__ = ["Cost", "GPUS", "Peaks", "analyze", "cpu_peaks", "estimate", "estimates", "module_totals", "targets"]
