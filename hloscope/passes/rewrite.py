"""One sweep over a computation that builds its replacement, shared by the rewriting passes.

Instructions are immutable and operands are names, so a pass never edits in place and never
copies a computation per rewrite. A `Rewriter` walks the computation once in post order
(operands before users). Each instruction arrives with its operands already renamed to
their replacements; the pass then keeps it, replaces it by another instruction's name, or
adds new instructions. `finish()` assembles the new computation in one go, or returns the
old one untouched when nothing happened, so unchanged computations stay shared between
the module before and after the pass.

    rw = Rewriter(comp, names)
    for inst in rw.sweep():
        if is_add_of_zero(inst):
            rw.replace(inst, inst.operands[0])   # users of inst now read operand 0
        else:
            rw.keep(inst)
    new_comp = rw.finish()
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from weakref import WeakKeyDictionary

from ..ir.attributes import Literal
from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import HloModule
from ..ir.shape import Shape
from .naming import NameUniquer

_PREDS = "control-predecessors"
_ORDERS: WeakKeyDictionary = WeakKeyDictionary()  # computation -> its post order
_OPCODES: WeakKeyDictionary = WeakKeyDictionary()  # computation -> the opcodes in it


def opcodes_in(comp: Computation) -> frozenset[str]:
    """The opcodes that occur in `comp` (cached), so a pass can skip what it cannot touch."""
    found = _OPCODES.get(comp)
    if found is None:
        found = _OPCODES[comp] = frozenset(i.opcode for i in comp.instructions)
    return found


def operands_first(comp: Computation) -> Sequence[Instruction]:
    """The instructions in an order where operands come before users (cached per computation).

    Usually the written order already is one (every pass writes its output so), and checking
    that is much cheaper than a depth-first walk; otherwise this is `comp.post_order()`.
    """
    order = _ORDERS.get(comp)
    if order is None:
        order = comp.instructions if _is_topological(comp) else tuple(comp.post_order())
        _ORDERS[comp] = order
    return order


def _is_topological(comp: Computation) -> bool:
    seen: set[str] = set()
    for inst in comp.instructions:
        if not seen.issuperset(inst.operands):
            return False
        if not seen.issuperset(inst.control_predecessors):
            return False
        seen.add(inst.name)
    return True


class Rewriter:
    """Rebuilds one computation in a single post-order sweep."""

    def __init__(self, comp: Computation, names: NameUniquer):
        self.comp = comp
        self.names = names
        self.emitted: dict[str, Instruction] = {}  # the new computation so far, by name
        self.alias: dict[str, str] = {}  # old name -> the name that now stands for it
        self.changed = False
        self.current: Instruction | None = None  # the original instruction being visited
        self._order: list[Instruction] = []

    def sweep(self) -> Iterator[Instruction]:
        """Each instruction in post order, with operands renamed to their replacements."""
        for inst in operands_first(self.comp):
            self.current = inst
            yield self.renamed(inst)

    def renamed(self, inst: Instruction) -> Instruction:
        """`inst` with operands and control-predecessors mapped through the replacements."""
        alias = self.alias
        preds = inst.control_predecessors if _PREDS in inst.attrs else ()  # the check first: cheap
        if not alias or (alias.keys().isdisjoint(inst.operands) and not preds):
            return inst  # the common case, kept cheap: nothing to rename
        ops = tuple(alias.get(o, o) for o in inst.operands)
        if preds:
            new_preds = tuple(dict.fromkeys(alias.get(p, p) for p in preds))
            if new_preds != preds:
                inst = inst.with_attrs(control__predecessors=new_preds)
        return inst if ops == inst.operands else with_operands(inst, ops)

    # ---- what the pass decides per instruction ----
    def keep(self, inst: Instruction) -> str:
        """Put `inst` (possibly renamed) into the new computation."""
        if inst is not self.current:
            self.changed = True
        self.emitted[inst.name] = inst
        self._order.append(inst)
        return inst.name

    def replace(self, old: Instruction, new_name: str) -> None:
        """Drop `old`; its users read `new_name` (already in the new computation) instead."""
        self.alias[old.name] = new_name
        self.changed = True

    def drop(self, old: Instruction) -> None:
        """Leave `old` out (it must have no users left)."""
        self.changed = True

    def add(
        self,
        opcode: str,
        shape: Shape,
        operands=(),
        attrs: dict | None = None,
        literal: Literal | None = None,
        prefix: str | None = None,
    ) -> str:
        """Add a new instruction named `opcode.N` (metadata from the one being visited)."""
        name = self.names.next(prefix or opcode)
        meta = self.current.metadata if self.current is not None else None
        inst = Instruction(name, opcode, shape, tuple(operands), dict(attrs or {}), meta, literal=literal)
        self.changed = True
        self.emitted[name] = inst
        self._order.append(inst)
        return name

    def get(self, name: str) -> Instruction:
        """An instruction of the new computation (operands of a renamed instruction are)."""
        return self.emitted[name]

    def finish(self) -> Computation:
        """The new computation, or the old one when nothing changed."""
        if not self.changed:
            return self.comp
        root = self.alias.get(self.comp.root, self.comp.root)
        return self.comp.replace(instructions=self._order, root=root)


def with_operands(inst: Instruction, operands: tuple[str, ...]) -> Instruction:
    """`inst.replace(operands=...)`, without dataclasses.replace's overhead (a hot path)."""
    return Instruction(
        inst.name,
        inst.opcode,
        inst.shape,
        operands,
        inst.attrs,
        inst.metadata,
        inst.parameter_number,
        inst.literal,
    )


def map_computations(module: HloModule, fn: Callable[[Computation], Computation]) -> HloModule:
    """Apply `fn` to every computation; the same module back if `fn` changed none of them."""
    new = tuple(fn(c) for c in module.computations)
    if all(a is b for a, b in zip(new, module.computations)):
        return module
    return module.replace(computations=new)
