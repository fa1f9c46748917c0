"""The HLO IR: element types, shapes, the opcode table, instructions, computations and modules,
with XLA's text syntax (printer and parser) and a verifier."""

from .attributes import Literal, Metadata, PadDim, ProgramShape, Raw, SliceDim, WindowDim
from .computation import Computation
from .instruction import Instruction
from .module import HloModule, StackFrames
from .parser import parse_hlo, parse_shape
from .shape import ArrayShape, Shape, TokenShape, TupleShape

__all__ = [
    "ArrayShape", "Computation", "HloModule", "Instruction", "Literal", "Metadata", "PadDim",
    "ProgramShape", "Raw", "Shape", "SliceDim", "StackFrames", "TokenShape", "TupleShape",
    "WindowDim", "parse_hlo", "parse_shape",
]
