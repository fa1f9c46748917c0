"""Buffer layout: where every value of the ENTRY computation lives while the program runs.

Like XLA's buffer assignment, but from the backend's side: parameters are the caller's
arrays, results are written straight into fresh output arrays, constants are read-only
globals in the object file, and every other value (a temporary) gets an offset in one
arena, taken from the memory plan (hloscope.memory) when there is one. `bitcast`,
`tuple` and `get-tuple-element` produce no data of their own: they alias their operands.

A result that is not computed by a kernel of its own (a parameter or a constant returned
as is, or one value returned twice) is copied into its output at the end.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.shape import ArrayShape, Shape, TupleShape
from ..memory import MemoryPlan
from .unsupported import unsupported

# A value's definition, one per leaf: ("param", flat leaf number), ("constant", name) or
# ("value", instruction, leaf number).
Def = tuple[str, str] | tuple[str, int] | tuple[str, str, int]

ALIGN = 64  # arena offsets and constants are aligned like this (XLA's MinAlign)
OUTPUT_ALIGN = 16  # result arrays come from numpy (malloc): 16-byte aligned


@dataclass(frozen=True)
class ArrayStorage:
    """One array's storage: kind is param, output, constant or arena; slot is the
    parameter/output number or the arena byte offset."""

    kind: str
    slot: int
    size: int
    value: str  # the instruction whose result this is (for constants, the constant)
    shape: ArrayShape

    @property
    def align(self) -> int:
        """The alignment native code may assume (parameters come from numpy: element size)."""
        if self.kind == "param":
            return self.shape.element_type.byte_size
        if self.kind == "arena":
            return ALIGN if self.slot % ALIGN == 0 else (self.slot & -self.slot)
        if self.kind == "output":
            return OUTPUT_ALIGN
        return ALIGN

    def overlaps(self, other: "ArrayStorage") -> bool:
        if self.kind != other.kind:
            return False
        if self.kind == "arena":
            return self.slot < other.slot + other.size and other.slot < self.slot + self.size
        return self.slot == other.slot and self.value == other.value

    def describe(self) -> str:
        where = {"param": f"parameter {self.slot}", "output": f"output {self.slot}",
                 "constant": "constant", "arena": f"arena+{self.slot}"}[self.kind]
        return f"{where} ({self.size} B)"


@dataclass
class BufferLayout:
    """Every entry value's leaf buffers, the arena size and the copies into outputs."""

    values: dict[str, list[ArrayStorage]] = field(default_factory=dict)
    arena_bytes: int = 0
    output_copies: list[tuple[ArrayStorage, ArrayStorage]] = field(default_factory=list)
    outputs: list[ArrayStorage] = field(default_factory=list)
    params: list[ArrayStorage] = field(default_factory=list)

    def of(self, name: str) -> list[ArrayStorage]:
        return self.values[name]

    def grow_arena(self, size: int, value: str, shape: ArrayShape) -> ArrayStorage:
        """A fresh arena region (for kernel scratch or a relocated in-place result)."""
        offset = _align(self.arena_bytes)
        self.arena_bytes = offset + max(size, 1)
        return ArrayStorage("arena", offset, size, value, shape)


def leaves(shape: Shape, owner: str | None = None) -> list[ArrayShape]:
    """The arrays a value of `shape` (the result of `owner`) is stored as: itself, or a
    tuple's leaves. (Token-shaped values are refused before any buffer is assigned:
    dispatch.check_module.)"""
    if isinstance(shape, TupleShape):
        return [leaf.as_array(owner) for leaf in shape.leaves()]
    return [shape.as_array(owner)]


def _align(n: int) -> int:
    return (n + ALIGN - 1) // ALIGN * ALIGN


def is_alias(inst: Instruction, comp: Computation) -> bool:
    """Instructions that produce no data of their own: their result is their operand's bytes
    (bitcast, a reshape between row-major layouts, tuple, get-tuple-element, opt-barrier)."""
    if inst.opcode in ("bitcast", "tuple", "get-tuple-element", "opt-barrier"):
        return True
    if inst.opcode == "reshape":
        operand, result = comp[inst.operands[0]].array_shape, inst.array_shape
        return operand.is_default_layout() and result.is_default_layout() and operand.dtype == result.dtype
    return False


def operand_buffers(inst: Instruction, layout: BufferLayout, target: str) -> list[ArrayStorage]:
    """One buffer per operand of a kernel's instruction; a tuple-shaped operand (a whole
    loop state) has several and cannot be one kernel argument."""
    inputs = []
    for op in inst.operands:
        bufs = layout.of(op)
        if len(bufs) != 1:
            raise unsupported(target, f"tuple-shaped operand {op}", inst.name)
        inputs.append(bufs[0])
    return inputs


def assign_buffers(entry: Computation, plan: MemoryPlan | None = None) -> BufferLayout:
    """Lay out the ENTRY's values in its instruction order (its schedule)."""
    # Space the plan did not place (grow_arena) must start past the plan's whole arena: the
    # running maximum of the offsets placed so far would hand out bytes that a later value
    # of the plan still occupies.
    layout = BufferLayout(arena_bytes=_align(plan.peak_bytes if plan is not None else 0))
    defs: dict[str, list[Def]] = {}
    for inst in entry.instructions:
        defs[inst.name] = _defs(inst, entry, defs)
    root_defs = defs[entry.root]
    root_leaves = leaves(entry.root_instruction.shape, entry.root)
    claimed: dict[Def, int] = {}
    for k, d in enumerate(root_defs):
        if d[0] == "value" and d not in claimed:
            claimed[d] = k
    storage: dict[Def, ArrayStorage] = {}
    for inst in entry.instructions:
        for d in defs[inst.name]:
            if d not in storage:
                storage[d] = _place(d, entry, claimed, plan, layout)
    layout.values = {name: [storage[d] for d in ds] for name, ds in defs.items()}
    layout.params = [storage[d] for p in entry.parameters for d in defs[p.name]]
    for k, (d, shape) in enumerate(zip(root_defs, root_leaves)):
        out = ArrayStorage("output", k, shape.byte_size, entry.root, shape)
        layout.outputs.append(out)
        if claimed.get(d) != k:
            layout.output_copies.append((storage[d], out))
    return layout


def _defs(inst: Instruction, entry: Computation, defs: dict[str, list[Def]]) -> list[Def]:
    """The value definitions (one per leaf) that `inst`'s result consists of."""
    op = inst.opcode
    if op == "parameter":  # a tuple parameter (a while loop's state) is one pointer per leaf
        before = entry.parameters[: entry.parameters.index(inst)]  # parameters are in number order
        first = sum(len(leaves(p.shape, p.name)) for p in before)
        return [("param", first + i) for i in range(len(leaves(inst.shape, inst.name)))]
    if op == "constant" and isinstance(inst.shape, ArrayShape):
        return [("constant", inst.name)]
    if op in ("bitcast", "reshape", "opt-barrier") and is_alias(inst, entry):
        return defs[inst.operands[0]]
    if op == "tuple":
        return [d for o in inst.operands for d in defs[o]]
    if op == "get-tuple-element":
        tuple_shape = entry[inst.operands[0]].shape.as_tuple(inst.operands[0])
        counts = [len(leaves(e, inst.operands[0])) for e in tuple_shape.elements]
        start = sum(counts[: inst.attr("index")])
        return defs[inst.operands[0]][start : start + counts[inst.attr("index")]]
    return [("value", inst.name, i) for i in range(len(leaves(inst.shape, inst.name)))]


def _place(d: Def, entry: Computation, claimed: dict[Def, int], plan: MemoryPlan | None,
           layout: BufferLayout) -> ArrayStorage:
    if d[0] == "param" and isinstance(d[1], int):
        p, shape = _param_leaf(entry, d[1])
        return ArrayStorage("param", d[1], shape.byte_size, p.name, shape)
    name = str(d[1])
    if d[0] == "constant":
        shape = entry[name].array_shape
        return ArrayStorage("constant", 0, shape.byte_size, name, shape)
    leaf = d[2] if len(d) == 3 else 0
    all_leaves = leaves(entry[name].shape, name)
    shape = all_leaves[leaf]
    if d in claimed:
        return ArrayStorage("output", claimed[d], shape.byte_size, name, shape)
    offset = _plan_offset(plan, name, leaf, all_leaves)
    if offset is None:
        return layout.grow_arena(shape.byte_size, name, shape)
    layout.arena_bytes = max(layout.arena_bytes, _align(offset + max(shape.byte_size, 1)))
    return ArrayStorage("arena", offset, shape.byte_size, name, shape)


def _param_leaf(comp: Computation, flat: int) -> tuple[Instruction, ArrayShape]:
    """(parameter, leaf shape) of the flat parameter leaf number `flat`."""
    for p in comp.parameters:
        shapes = leaves(p.shape, p.name)
        if flat < len(shapes):
            return p, shapes[flat]
        flat -= len(shapes)
    raise IndexError(flat)


def _plan_offset(plan: MemoryPlan | None, name: str, leaf: int, all_leaves: list[ArrayShape]) -> int | None:
    """The memory plan's offset for leaf `leaf` of a value, or None (then it gets fresh space).

    The plan stores a tuple's elements one after another in one buffer. Its offset is used
    only if the buffer is in the arena, is big enough for every leaf, and leaves the leaf
    aligned to its element size, so native code never sees a buffer of the wrong size or a
    misaligned one, whatever the plan says.
    """
    if plan is None:
        return None
    found = plan.by_instruction(name)
    if found is None or found.offset is None or found.kind not in ("temporary", "output"):
        return None
    if found.size < sum(s.byte_size for s in all_leaves):
        return None
    offset = found.offset + sum(s.byte_size for s in all_leaves[:leaf])
    if offset < 0 or offset % all_leaves[leaf].element_type.byte_size:
        return None
    return offset
