"""The CPU's own passes, run after the compile's pipeline and before memory planning (its
Target's `lowering_passes`): whatever the pipeline was, the module the code is made from has
only the types the CPU's emitters know, and the memory plan is made for that module.

    complex-as-pairs        c64/c128 as pairs of reals                 (complex_as_pairs.py)
    narrow-ints-as-bytes    s4, u4, s2, u2, s1, u1 as bytes            (narrow_ints_as_bytes.py)
    small-floats-as-bytes   f8 and f4 floats as bytes, converts by table (small_floats_as_bytes.py)
"""

from __future__ import annotations

from ...passes.pipeline import Pipeline
from .type_passes import ComplexAsPairs, NarrowIntsAsBytes, SmallFloatsAsBytes

NAME = "cpu-lowering"


def cpu_lowering() -> Pipeline:
    return Pipeline(NAME, [ComplexAsPairs(), NarrowIntsAsBytes(), SmallFloatsAsBytes()])
