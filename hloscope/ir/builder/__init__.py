"""Build HLO in Python: what the tracer and the passes use to write computations.

    mb = ModuleBuilder("axpy")
    with mb.computation("main") as cb:
        a = cb.parameter(scalar("f32"))
        x = cb.parameter(array("f32", 8))
        y = cb.add(cb.multiply(cb.broadcast(a, (8,)), x), x)
        main = cb.build(y)
    module = mb.build(main)

A handle is simply the Instruction that was made; its name becomes the operand. Every op
infers its shape (`infer_shape`) unless one is given, and a given one is checked, so a
shape mistake is reported where it is made, naming the op and its operand shapes.
Names are `opcode.N`, unique in the module, as XLA names them.
"""

from .computation_builder import CompRef, ComputationBuilder, Handle, as_shape
from .module_builder import ModuleBuilder
from .names import NameUniquer
from .ops import make_window

__all__ = [
    "CompRef",
    "ComputationBuilder",
    "Handle",
    "ModuleBuilder",
    "NameUniquer",
    "as_shape",
    "make_window",
]
