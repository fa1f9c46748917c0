"""The CPU's own passes, run after the compile's pipeline and before memory planning (its
Target's `lowering_passes`): whatever the pipeline was, the module the code is made from has
only the types the CPU's emitters know, and the memory plan is made for that module.

    complex-as-pairs        c64/c128 as pairs of reals                 (complex_as_pairs.py)
    narrow-ints-as-bytes    s4, u4, s2, u2, s1, u1 as bytes            (narrow_ints_as_bytes.py)
    small-floats-as-bytes   f8 and f4 floats as bytes, converts by table (small_floats_as_bytes.py)
    kernel-strategy         each instruction's kernel, and why: loops, the library, BLAS,
                            a split reduction, a scan, a row program (kernel_strategy.py)
"""

from __future__ import annotations

from typing import Any

from ...passes.pipeline import Pipeline
from .kernel_strategy import KernelStrategy
from .options import CpuOptions
from .type_passes import ComplexAsPairs, NarrowIntsAsBytes, SmallFloatsAsBytes

NAME = "cpu-lowering"


# The options the kernel strategy depends on: the optimize stage reads them (what-if reruns it).
STRATEGY_OPTIONS = ("fast_math", "reassociate_reductions", "dot", "library", "cpu", "features", "parallel_min_elements")


def cpu_lowering(options: dict[str, Any]) -> Pipeline:
    opts = CpuOptions.of(options)
    return Pipeline(NAME, [ComplexAsPairs(), NarrowIntsAsBytes(), SmallFloatsAsBytes(),
                           KernelStrategy(opts.emit, opts.parallel_min_elements)])
