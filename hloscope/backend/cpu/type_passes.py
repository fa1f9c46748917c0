"""The CPU's type rewrites as passes of the compile, recorded like the pipeline's: the module
with complex values, sub-byte integers or f8/f4 floats rewritten into types the CPU's emitters
know, over the very same buffers (complex_as_pairs.py, narrow_ints_as_bytes.py,
small_floats_as_bytes.py). They run after the pipeline and before memory planning, so the
plan shown is the one the code uses; the stepper shows each one's before and after, and its
log says what became of every instruction of the rewritten types.
"""

from __future__ import annotations

from typing import Callable

from ...errors import NotSupportedError
from ...ir.instruction import Instruction
from ...ir.module import HloModule
from ...ir.memo import per_value
from ...ir.shape import ArrayShape, Shape, TupleShape
from ...passes.pipeline import HloPass
from ...passes.record import DecisionLog
from .complex_as_pairs import REAL_OF, complex_as_pairs, pair_shape
from .narrow_ints_as_bytes import NARROW, narrow_ints_as_bytes
from .narrow_ints_as_bytes import raw_shape as narrow_bytes
from .small_floats_as_bytes import SMALL, small_floats_as_bytes
from .small_floats_as_bytes import raw_shape as small_bytes
from .type_rewrite import any_array


@per_value
def element_types(module: HloModule) -> frozenset[str]:
    """Every element type of every value in `module` (shared by the three rewrites)."""
    found: set[str] = set()

    def add(shape: Shape) -> None:
        if isinstance(shape, TupleShape):
            for e in shape.elements:
                add(e)
        elif isinstance(shape, ArrayShape):
            found.add(shape.dtype)

    for _, inst in module.all_instructions():
        add(inst.shape)
    return frozenset(found)


class TypeRewritePass(HloPass):
    """A type rewrite: `types` are the element types it removes, `rewrite` the module rewrite,
    `new_shape` what a value of such a type becomes, `how` the rule, said once per instruction."""

    types: frozenset[str] = frozenset()
    rewrite: Callable[[HloModule], HloModule]
    new_shape: Callable[[Shape], Shape]
    how: str = ""

    def run(self, module: HloModule, log: DecisionLog) -> HloModule:
        if not self.types & element_types(module):  # most modules: one look at their types
            return module
        touched = [(c, i) for c, i in module.all_instructions() if self._touches(c, i)]
        if not touched:
            return module
        try:
            after = type(self).rewrite(module)
        except NotSupportedError as e:
            # Left as it is, said here; the code generator names the op when it refuses it,
            # and everything before it (the plan, the graphs) is still shown.
            log.add("kept", module.name, f"not rewritten: {e}", accepted=False)
            return module
        for comp, inst in touched:
            log.add("rewrote", inst.name, self._reason(comp, inst), computation=comp.name)
        return after

    def _touches(self, comp, inst: Instruction) -> bool:
        shapes = [inst.shape, *(comp[o].shape for o in inst.operands)]
        return any(any_array(s, lambda a: a.dtype in self.types) for s in shapes)

    def _reason(self, comp, inst: Instruction) -> str:
        shape = inst.shape if any_array(inst.shape, lambda a: a.dtype in self.types) else comp[inst.operands[0]].shape
        new = type(self).new_shape(shape)
        if inst.opcode in ("fusion", "call"):
            return f"{inst.opcode} of {shape.short()}: inlined, its body rewritten ({self.how})"
        return f"{inst.opcode} on {shape.short()} -> {new.short()}: {self.how}"


class ComplexAsPairs(TypeRewritePass):
    """Complex values as pairs of reals: c64[d] is f32[d,2] byte for byte (numpy's and XLA's
    interleaved re, im), so complex arithmetic becomes real arithmetic on the pair dimension."""

    name = "complex-as-pairs"
    types = frozenset(REAL_OF)
    rewrite = staticmethod(complex_as_pairs)
    new_shape = staticmethod(pair_shape)
    how = "real arithmetic on (re, im) pairs, the most minor dimension"


class NarrowIntsAsBytes(TypeRewritePass):
    """Sub-byte integers (s4, u4, s2, u2, s1, u1) as the bytes numpy keeps them in, one value
    a byte: decoded (sign-extended or masked) before arithmetic, encoded after it."""

    name = "narrow-ints-as-bytes"
    types = frozenset(NARROW)
    rewrite = staticmethod(narrow_ints_as_bytes)
    new_shape = staticmethod(narrow_bytes)
    how = "one value a byte, decoded before arithmetic and masked to its bits after"


class SmallFloatsAsBytes(TypeRewritePass):
    """f8 and f4 floats as their bytes (u8): converts to and from f32 through tables made
    from ml_dtypes (decode table; rounding boundaries with ties to even)."""

    name = "small-floats-as-bytes"
    types = SMALL
    rewrite = staticmethod(small_floats_as_bytes)
    new_shape = staticmethod(small_bytes)
    how = "bytes (u8); a convert goes through tables of the type's values"



def refuse_what_was_kept(module: HloModule) -> None:
    """Raises the NotSupportedError a type rewrite met in `module` (it names the op and the
    instruction), for the code generator to refuse with; nothing when none remains."""
    for p in (ComplexAsPairs(), NarrowIntsAsBytes(), SmallFloatsAsBytes()):
        if any(p._touches(c, i) for c, i in module.all_instructions()):
            type(p).rewrite(module)
