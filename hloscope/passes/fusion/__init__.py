"""Fusion: computing chains of ops in one loop, so intermediate arrays never reach memory.

    instruction_fusion.py   InstructionFusion ("fusion"): producers merge into their consumers
    multi_output.py         MultiOutputFusion ("multi_output_fusion"): one loop, several results
    rules.py                the fusion rules: may this producer join this consumer, and why (not)
    graph.py                the mutable graph both passes edit, written back in one sweep
    builder.py              a fusion under construction (a Group) and how it becomes HLO

Both passes are exported here: `from hloscope.passes.fusion import InstructionFusion`.
"""

from .instruction_fusion import InstructionFusion
from .multi_output import MultiOutputFusion

__all__ = ["InstructionFusion", "MultiOutputFusion"]
