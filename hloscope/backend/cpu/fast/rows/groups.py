"""Which instructions run as one row program: consecutive ones over the same rows.

An instruction can be part of one when everything its computation does is an op of the
interpreter (rows/ops.py) on f32 or f64 arrays in the default layout, plus broadcasts,
reshapes and reductions by add, maximum or minimum over a row's dimensions. A program is a
run of such instructions in schedule order (instructions that make no code, a get-tuple-
element say, do not break it), at most MAX_MEMBERS, with one split into rows (the one its
reductions mean: a program has at least one reduction), in which:

  - every value has a single form (forms.py), and a buffer an earlier member wrote is read
    in the form it was written;
  - what the program writes it reads only row by row: never a column vector or a scalar
    another member writes, or the row before has overwritten it already;
  - what it writes shares memory with nothing it touches, but for a buffer overwritten in
    place, row for row.

Row r of every member then needs only row r of what the members before it wrote, and the
interpreter may run all of them on a block of rows before the next.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .....errors import HloscopeError
from .....ir.computation import Computation
from .....ir.instruction import Instruction
from .....ir.module import HloModule
from .....ir.shape import ArrayShape
from ....buffers import ArrayStorage, BufferLayout, is_alias, leaves, operand_buffers
from ....dispatch import CONTROL_FLOW, NO_CODE, computation_of
from ....elemental_reduce import simple_reducer
from ....index import is_default_physical
from ....kernel_spec import location, parameter_number
from .forms import COL, SCALAR, Split, infer_forms, reduce_split
from .ops import BINARY, REDUCERS, TYPES, UNARY
from .translate import VIEWS, Member

MAX_MEMBERS = 8  # a bound on the work of checking a member against the program it joins
# Rows narrower than this run faster as generated loops (each op of a program pays its loop's
# start at every row: softmax over 1M elements in rows of 4, 16, 32, 64, 256 ran 3.4, 1.8,
# 1.6, 1.15 and 0.97 times as long as generated); a program this small runs in microseconds
# either way, and compiles in a fraction of the time.
MIN_WIDTH = 64
SMALL = 1 << 15  # elements


@dataclass(frozen=True)
class Candidate:
    """An instruction whose computation the interpreter can run (before any split is chosen)."""

    inst: Instruction
    comp: Computation
    inputs: list[ArrayStorage]
    outputs: list[ArrayStorage]
    dtype: str
    split: Split | None  # what its reductions mean (None: it has none)
    reducers: dict[str, str]


def candidate(hlo: HloModule, comp: Computation, inst: Instruction, layout: BufferLayout) -> Candidate | None:
    """`inst` as a candidate member (see the module docstring), or None."""
    kernel_comp = computation_of(inst, comp, hlo)
    dtypes, splits, reducers = set(), set(), {}
    for i in kernel_comp.instructions:
        if i.opcode == "tuple":
            if i.name != kernel_comp.root:
                return None
            continue
        shape = i.shape
        if not isinstance(shape, ArrayShape) or not is_default_physical(shape):
            return None
        dtypes.add(shape.dtype)
        if not _supported(kernel_comp, i):
            return None
        if i.opcode == "reduce":
            op = simple_reducer(hlo, i.attr("to_apply"))
            split = reduce_split(kernel_comp[i.operands[0]].array_shape, i.attr("dimensions"))
            if op not in REDUCERS or split is None:
                return None
            reducers[i.name] = op
            splits.add(split)
    if len(dtypes) != 1 or next(iter(dtypes)) not in TYPES or len(splits) > 1:
        return None
    try:
        inputs = operand_buffers(inst, layout, "cpu")
    except HloscopeError:
        return None
    outputs = layout.of(inst.name)
    if len(outputs) != len(leaves(kernel_comp.root_instruction.shape)):
        return None
    return Candidate(inst, kernel_comp, inputs, outputs, next(iter(dtypes)), next(iter(splits), None), reducers)


def _supported(comp: Computation, i: Instruction) -> bool:
    op = i.opcode
    if op in ("parameter", "broadcast", "reshape", "bitcast"):
        return True
    if op in ("copy", "convert"):  # the same elements, when layout and type do not change
        return comp[i.operands[0]].shape == i.shape
    if op == "constant":
        literal = getattr(i, "literal", None)
        return literal is not None and not literal.elided and i.array_shape.size == 1
    if op == "reduce":
        return len(i.operands) == 2
    return op in UNARY or op in BINARY


@dataclass
class ProgramPlan:
    """The members of one program, its split and element type."""

    members: list[Member]
    split: Split
    dtype: str


def plan_at(found: list[Candidate], aliased_params: bool) -> ProgramPlan | None:
    """The program made of the longest prefix of `found` (consecutive candidates, the first
    the instruction being lowered) that is one (see the module docstring), or None."""
    split = next((c.split for c in found if c.split is not None), None)
    if split is None or (split.width < MIN_WIDTH and split.rows * split.width > SMALL):
        return None
    dtype = found[0].dtype
    members: list[Member] = []
    state = _State()
    for c in found:
        if c.dtype != dtype or (c.split is not None and c.split != split):
            break
        member = _join(c, split, state, aliased_params)
        if member is None:
            break
        members.append(member)
    if not any(m.reducers for m in members) or (len(members) == 1 and _plain_reduce(members[0].comp)):
        return None  # a reduce of a parameter alone is a call to the library's reduction already
    return ProgramPlan(members, split, dtype)


def _plain_reduce(comp: Computation) -> bool:
    return all(i.opcode in ("parameter", "constant", "reduce") for i in comp.instructions)


@dataclass
class _State:
    """What the members so far read and write."""

    forms: dict[tuple, str] = field(default_factory=dict)  # by location: how it is read or was written
    fixed_reads: list[ArrayStorage] = field(default_factory=list)  # read as a column vector or a scalar
    touched: list[ArrayStorage] = field(default_factory=list)
    written: list[ArrayStorage] = field(default_factory=list)


def _join(c: Candidate, split: Split, state: _State, aliased_params: bool) -> Member | None:
    """c as the next member, if it may be (state updated), else None."""
    known = {n: state.forms[location(buf)] for n, buf in enumerate(c.inputs) if location(buf) in state.forms}
    forms = infer_forms(c.comp, split, known)
    if forms is None:
        return None
    reads = {parameter_number(p): forms[p.name] for p in c.comp.parameters}
    fixed = [c.inputs[n] for n, form in reads.items() if form in (COL, SCALAR)]
    root = c.comp.root_instruction
    leaf_forms = [forms[o] for o in (root.operands if root.opcode == "tuple" else [root.name])]
    written = state.written + list(c.outputs)
    if any(_shares(f, w) for f in state.fixed_reads + fixed for w in written):
        return None  # a vector or scalar read where the program writes
    if aliased_params and any(b.kind == "param" for b in fixed):
        return None  # an output may be that parameter's memory (donation)
    mine = [c.inputs[n] for n in reads] + list(c.outputs)
    for w in written:
        for other in state.touched + mine:
            same = location(other) == location(w)
            if other != w and ((same and other.size != w.size) or (not same and other.overlaps(w))):
                return None
    for n, form in reads.items():
        if state.forms.setdefault(location(c.inputs[n]), form) != form:
            return None
    for out, form in zip(c.outputs, leaf_forms):
        state.forms[location(out)] = form
    state.fixed_reads += fixed
    state.touched += mine
    state.written = written
    return Member(c.inst, c.comp, c.inputs, c.outputs, forms, c.reducers)


def _shares(a: ArrayStorage, b: ArrayStorage) -> bool:
    return location(a) == location(b) or a.overlaps(b)


def following_candidates(comp: Computation, start: int, analyze) -> list[Candidate]:
    """The candidates from instruction `start` on, until the first instruction that makes
    code and is not one (at most MAX_MEMBERS)."""
    found: list[Candidate] = []
    for inst in comp.instructions[start:]:
        if inst.opcode in NO_CODE or is_alias(inst, comp):
            continue
        c = analyze(inst) if inst.opcode not in CONTROL_FLOW else None
        if c is None or len(found) == MAX_MEMBERS:
            break
        found.append(c)
    return found


def buffer_readers(comp: Computation, layout: BufferLayout) -> dict[ArrayStorage, set[str]]:
    """Which instructions read each buffer (the root's results count as read: "ROOT")."""
    readers: dict[ArrayStorage, set[str]] = {}
    for inst in comp.instructions:
        if inst.opcode in NO_CODE or is_alias(inst, comp):
            continue
        for op in inst.operands:
            for buf in layout.of(op):
                readers.setdefault(buf, set()).add(inst.name)
    for buf in layout.of(comp.root):
        readers.setdefault(buf, set()).add("ROOT")
    return readers


def internal_buffers(plan: ProgramPlan, readers: dict[ArrayStorage, set[str]]) -> set[ArrayStorage]:
    """What the program writes that only its own members read: those it need not write."""
    names = {m.inst.name for m in plan.members}
    return {out for m in plan.members for out in m.outputs
            if out.kind == "arena" and readers.get(out, set()) <= names}
