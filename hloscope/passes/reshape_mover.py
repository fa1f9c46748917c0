"""reshape-mover: sink reshapes and transposes below elementwise ops
(XLA's ReshapeMover, xla/hlo/transforms/simplifiers/reshape_mover.cc).

When every operand of an elementwise op is the same rearrangement (the same reshape, or
the same transpose, of arrays of one shape), the op can run before the rearrangement
instead of after it: `add(reshape(a), reshape(b)) = reshape(add(a, b))`. Operands that are
broadcast scalars are rearranged for free (broadcast the scalar to the other shape). Moving
rearrangements towards the outputs lets them meet and cancel (reshape_of_reshape in
algsimp), and gives fusion longer chains of plain elementwise ops.

This version is conservative: it moves only when every rearranged operand has this op as
its only user (so no rearrangement is duplicated), the rearranged arrays are not constants,
and the other operands are broadcast scalars. A moved rearrangement that lands on another
of its kind merges with it at once (a reshape of a reshape is one reshape, and may be none),
so a reshape sinking down a chain cancels against its inverse in the same sweep instead of
getting stuck between two elementwise ops.

    before                                     after
      ra = f32[8] reshape(a: f32[2,4])           add.1 = f32[2,4] add(a, b)
      rb = f32[8] reshape(b: f32[2,4])           ROOT reshape.1 = f32[8] reshape(add.1)
      ROOT s = f32[8] add(ra, rb)
"""

from __future__ import annotations

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import HloModule
from ..ir.opcodes import is_elementwise
from ..ir.shape import ArrayShape
from .naming import NameUniquer
from .pipeline import HloPass
from .record import DecisionLog
from .rewrite import Rewriter, map_computations, opcodes_in

REARRANGES = ("reshape", "transpose")
NOT_MOVED_PAST = frozenset({"rng"})  # elementwise in form, but not a function of its operands


def signature(r: Instruction, source: Instruction) -> tuple:
    """What makes two rearrangements the same: opcode, input dims, output dims, permutation."""
    return (r.opcode, source.array_shape.dims, r.array_shape.dims, r.attr("dimensions"))


def is_scalar_broadcast(inst: Instruction, rw: Rewriter) -> bool:
    """A broadcast of a scalar: it can be rebuilt at any shape."""
    return inst.opcode == "broadcast" and rw.get(inst.operands[0]).array_shape.rank == 0


class _Mover:
    """The sweep over one computation, with the user counts it keeps up to date."""

    def __init__(self, comp: Computation, names: NameUniquer, log: DecisionLog):
        self.comp, self.log = comp, log
        self.rw = Rewriter(comp, names)
        self.user_count: dict[str, int] = {}  # for instructions this sweep made

    def users(self, name: str) -> int:
        return self.user_count.get(name, len(self.comp.users(name)))

    def movable(self, inst: Instruction) -> tuple | None:
        """The common signature of the rearranged operands, if `inst` qualifies."""
        if not is_elementwise(inst.opcode) or inst.opcode in NOT_MOVED_PAST or inst.array_shape.rank == 0:
            return None
        ops = [self.rw.get(o) for o in inst.operands]
        rearranged = [o for o in ops if o.opcode in REARRANGES]
        if not rearranged:
            return None
        sigs = {signature(o, self.rw.get(o.operands[0])) for o in rearranged}
        lone = all(
            self.users(o.name) == 1 and self.rw.get(o.operands[0]).opcode != "constant" for o in rearranged
        )
        others_ok = all(o.opcode in REARRANGES or is_scalar_broadcast(o, self.rw) for o in ops)
        return sigs.pop() if len(sigs) == 1 and lone and others_ok else None

    def move(self, inst: Instruction, sig: tuple) -> str:
        """Rebuild `inst` on the un-rearranged operands and rearrange its result instead."""
        opcode, in_dims, _, perm = sig
        first = next(self.rw.get(o) for o in inst.operands if self.rw.get(o).opcode in REARRANGES)
        layout = self.rw.get(first.operands[0]).array_shape.layout
        inner = [self._unrearranged(self.rw.get(o), in_dims, layout) for o in inst.operands]
        dtype = inst.array_shape.dtype
        op = self.rw.add(inst.opcode, ArrayShape(dtype, in_dims, layout), inner, inst.attrs)
        attrs = {"dimensions": perm} if opcode == "transpose" else {}
        moved = self.rw.add(opcode, inst.shape, [op], attrs)
        self.user_count[moved] = len(self.comp.users(inst.name))
        self.log.add(
            "moved",
            first.name,
            f"{opcode} moved below {inst.opcode} {inst.name}: every operand is the same "
            f"{opcode} of {dtype}[{','.join(map(str, in_dims))}] or a broadcast scalar",
            target=moved,
            rule="sink_rearrange",
            computation=self.comp.name,
        )
        return moved

    def _unrearranged(self, operand: Instruction, dims: tuple, layout: tuple) -> str:
        if operand.opcode in REARRANGES:
            return operand.operands[0]
        shape = ArrayShape(operand.array_shape.dtype, dims, layout)
        return self.rw.add("broadcast", shape, [operand.operands[0]], {"dimensions": ()})

    def merge(self, inst: Instruction) -> str | None:
        """A reshape of a reshape this sweep moved (or transpose of transpose) as one, or none."""
        inner = self.rw.get(inst.operands[0]) if inst.opcode in REARRANGES else None
        if inner is None or inner.opcode != inst.opcode or self.user_count.get(inner.name) != 1:
            return None
        x = self.rw.get(inner.operands[0])
        attrs, in_place = {}, True
        if inst.opcode == "transpose":
            perm = tuple(inner.attr("dimensions")[i] for i in inst.attr("dimensions"))
            attrs, in_place = {"dimensions": perm}, perm == tuple(range(len(perm)))
        cancels = in_place and x.shape == inst.shape
        merged = x.name if cancels else self.rw.add(inst.opcode, inst.shape, [x.name], attrs)
        self.user_count[merged] = self.users(inst.name)
        what = "cancel out" if cancels else "combine into one"
        self.log.add(
            "merged",
            inst.name,
            f"the moved {inner.opcode} {inner.name} and this {inst.opcode} {what}",
            target=merged,
            rule="merge_rearranges",
            computation=self.comp.name,
        )
        return merged

    def run(self) -> Computation:
        for inst in self.rw.sweep():
            sig = self.movable(inst)
            result = self.move(inst, sig) if sig is not None else self.merge(inst)
            if result is None:
                self.rw.keep(inst)
            else:
                self.rw.replace(inst, result)
        return self.rw.finish()


class ReshapeMover(HloPass):
    """Moves reshapes and transposes below elementwise ops when every operand is the same
    rearrangement (or a broadcast scalar): `add(reshape(a), reshape(b))` becomes
    `reshape(add(a, b))`. Rearrangements sink towards the outputs, where they meet other
    rearrangements and cancel, and the elementwise ops they passed form longer chains for
    fusion. Only moves that duplicate nothing are made."""

    name = "reshape-mover"

    def run(self, module: HloModule, log: DecisionLog) -> HloModule:
        names = NameUniquer.for_module(module)
        return map_computations(
            module, lambda c: c if opcodes_in(c).isdisjoint(REARRANGES) else _Mover(c, names, log).run()
        )
