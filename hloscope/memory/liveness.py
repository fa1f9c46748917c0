"""Liveness: when is each buffer needed, given the order the instructions run in?

With a schedule, time is simply the position in it (XLA's HloLiveRange, logical time). A
buffer is live from the instruction that defines it to the last instruction that reads it,
directly or through an alias (a bitcast, a tuple, a get-tuple-element):

    0: p   = parameter(0)        p    [0, 4]   parameters are live from the start...
    1: a   = exp(p)              a    [1, 2]
    2: b   = negate(a)           b    [2, 3]   a dies at 2, so b may reuse a's bytes in place
    3: c   = add(b, p)           c    [3, 4]
    4: ROOT bitcast(c)                         ...and the result lives to the end

Buffers that the same storage holds (an elementwise chain written in place) form one
`Storage`; the heap gives each storage an offset. Everything is linear in the size of the
computation.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import HloModule
from ..ir.shape import TupleShape
from .values import OUTSIDE, alias_sources, aliases, may_reuse_operand, shape_bytes


@dataclass
class Storage:
    """Bytes that one or more values occupy in turn, and when."""

    id: int
    name: str  # the instruction that first defines it
    size: int
    start: int
    end: int
    kind: str  # parameter | constant | output | temporary
    values: list[str] = field(default_factory=list)  # defining values, in order (in-place chain)
    index: tuple[int, ...] = ()  # which element of a tuple-shaped result (XLA's ShapeIndex)
    aliases: list[str] = field(default_factory=list)  # instructions that only point into it
    in_place_of: dict[str, str] = field(default_factory=dict)  # value -> the operand it overwrote


def schedule_of(comp: Computation, scheduled: bool) -> list[str]:
    """The order instructions run in: as written when scheduled, else a post order."""
    return [i.name for i in (comp.instructions if scheduled else comp.post_order())]


def analyze(comp: Computation, order: list[str], module: HloModule | None = None,
            in_place: bool = True) -> tuple[list[Storage], dict[str, list[int]]]:
    """Storages with live ranges, and which storages each instruction's value occupies."""
    where: dict[str, list[int]] = {}
    parts: dict[str, list[list[int]]] = {}  # tuple-shaped values: the storages of each element
    storages: list[Storage] = []
    for pos, name in enumerate(order):
        inst = comp[name]
        if aliases(inst, comp):
            where[name] = _alias(inst, comp, where, parts)
            for s in where[name]:
                storages[s].aliases.append(name)
            continue
        kind = inst.opcode if inst.opcode in OUTSIDE else "temporary"
        start = 0 if kind == "parameter" else pos
        elements = inst.shape.elements if isinstance(inst.shape, TupleShape) and kind == "temporary" else None
        first = len(storages)
        for k, shape in enumerate(elements if elements is not None else [inst.shape]):
            index = (k,) if elements is not None else ()
            storages.append(Storage(len(storages), name, shape_bytes(shape), start, start, kind, [name], index=index))
        where[name] = list(range(first, len(storages)))
        if elements is not None:
            parts[name] = [[s] for s in where[name]]
    _extend_by_uses(comp, order, storages, where)
    if in_place:
        _reuse_in_place(comp, order, storages, where, module)
    return [s for s in storages if s.values], where


def _alias(inst: Instruction, comp: Computation, where: dict, parts: dict) -> list[int]:
    """The storages an aliasing instruction points into; a get-tuple-element picks one
    element's storage when the tuple's elements are known."""
    if inst.opcode == "get-tuple-element" and inst.operands[0] in parts:
        return list(parts[inst.operands[0]][inst.attr("index")])
    if inst.opcode == "tuple":
        parts[inst.name] = [list(where[o]) for o in inst.operands]
    return list(dict.fromkeys(s for o in alias_sources(inst, comp) for s in where[o]))


def _extend_by_uses(comp: Computation, order: list[str], storages: list[Storage], where: dict) -> None:
    """A storage lives until its last reader; the result's storages live to the end."""
    for pos, name in enumerate(order):
        for o in comp[name].operands:
            for s in where[o]:
                storages[s].end = max(storages[s].end, pos)
    for s in where[comp.root]:
        storages[s].end = len(order) - 1
        if storages[s].kind == "temporary":
            storages[s].kind = "output"
    for s in storages:
        if s.kind == "parameter":
            s.end = len(order) - 1


def _reuse_in_place(comp: Computation, order: list[str], storages: list[Storage], where: dict,
                    module: HloModule | None) -> None:
    """Let a value take over an operand's storage that dies where the value is made."""
    for pos, name in enumerate(order):
        inst = comp[name]
        mine = where[name]
        if len(mine) != 1 or storages[mine[0]].name != name or storages[mine[0]].kind not in ("temporary", "output"):
            continue
        for index, operand in enumerate(inst.operands):
            donor = where[operand]
            if len(donor) != 1 or not may_reuse_operand(inst, index, comp, module):
                continue
            old = storages[donor[0]]
            if old.kind == "temporary" and old.end == pos and old.size == storages[mine[0]].size:
                _merge(storages, where, mine[0], old, name, operand)
                break


def _merge(storages: list[Storage], where: dict, sid: int, into: Storage, value: str, operand: str) -> None:
    """Storage `sid` (made by `value`) is folded into `into`, which it continues."""
    gone = storages[sid]
    into.end, into.kind = gone.end, gone.kind
    into.values += gone.values
    into.aliases += gone.aliases
    into.in_place_of[value] = operand
    for name in gone.values + gone.aliases:
        where[name] = [into.id if s == sid else s for s in where[name]]
    gone.values, gone.aliases = [], []


def live_profile(storages: list[Storage], length: int, kinds=("temporary", "output")) -> list[int]:
    """Bytes live at each position, counting only storages of these kinds (the arena)."""
    delta = [0] * (length + 1)
    for s in storages:
        if s.kind in kinds:
            delta[s.start] += s.size
            delta[s.end + 1] -= s.size
    out, running = [], 0
    for d in delta[:length]:
        running += d
        out.append(running)
    return out
