"""What each value of a computation is, seen row by row: the forms a row program needs.

A row program views every array of its computations through one split of the rows: R rows
of N elements (the reduced, minor dimensions). In a default layout the linear index of
element j of row r is r * N + j, whatever the shape, so an array is one of

    full     R x N elements: a row of N per row            f32[4096,1024], f32[64,64,1024]
    row      R elements: one value per row                 a row's sum, f32[4096] or f32[4096,1]
    col      N elements: the same vector for every row     layer norm's scale, f32[1024]
    scalar   one element: the same value everywhere        a constant

Sizes alone leave `row` and `col` apart only when R != N; how values are used settles the
rest: an elementwise op's operands have its form, a broadcast's dimensions say which form
its operand has (those of the rows -> row, those of a row -> col, none -> scalar), and a
reduce over a row's dimensions turns a full array into a row value. The forms are found by
narrowing each value's candidates until nothing changes (a handful of sweeps): a value left
with none, or with two, means the computation does not run row by row (None).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import prod

from .....ir.computation import Computation
from .....ir.instruction import Instruction
from .....ir.shape import ArrayShape

FULL, ROW, COL, SCALAR = "full", "row", "col", "scalar"
FORMS = frozenset({FULL, ROW, COL, SCALAR})
ELEMENTWISE_LIKE = ("reshape", "bitcast")  # the same elements in the same linear order


@dataclass(frozen=True)
class Split:
    """R rows of N elements."""

    rows: int
    width: int

    def size(self, form: str) -> int:
        return {FULL: self.rows * self.width, ROW: self.rows, COL: self.width, SCALAR: 1}[form]


def split_points(shape: ArrayShape, split: Split) -> list[int]:
    """The dimensions p where a full array's shape splits into rows (dims before p, product
    R) and a row (dims from p on, product N); several where size-1 dimensions sit between."""
    return [p for p in range(shape.rank + 1) if prod(shape.dims[:p]) == split.rows
            and prod(shape.dims[p:]) == split.width]


def reduce_split(source: ArrayShape, dimensions) -> Split | None:
    """The split a reduce over `dimensions` means: rows of its minor dimensions, if those
    are the dimensions it reduces (size-1 dimensions aside)."""
    reduced = {d for d in dimensions if source.dims[d] != 1}
    big = [d for d in range(source.rank) if source.dims[d] != 1]
    kept = [d for d in big if d not in reduced]
    if not reduced or (kept and max(kept) > min(reduced)):
        return None
    p = min(reduced)
    return Split(prod(source.dims[:p]), prod(source.dims[p:]))


def infer_forms(comp: Computation, split: Split, known: dict[int, str]) -> dict[str, str] | None:
    """Each array value's form under `split` (see the module docstring); `known` fixes the
    forms of some parameters (by number). None when some value has no single form."""
    if split.rows < 2 or split.width < 2:
        return None
    candidates: dict[str, set[str]] = {}
    for inst in comp.instructions:
        if inst.opcode == "tuple":
            continue
        shape = inst.shape
        if not isinstance(shape, ArrayShape):
            return None
        found = {f for f in FORMS if shape.size == split.size(f)}
        if inst.opcode == "parameter" and inst.parameter_number in known:
            found &= {known[inst.parameter_number]}
        candidates[inst.name] = found
    for leaf in _root_leaves(comp):
        candidates[leaf] &= {FULL, ROW}
    for _ in range(len(comp.instructions) + 1):
        before = sum(map(len, candidates.values()))
        for inst in comp.instructions:
            if not _narrow(comp, inst, split, candidates):
                return None
        if sum(map(len, candidates.values())) == before:
            break
    if any(len(c) != 1 for c in candidates.values()):
        return None
    return {name: next(iter(c)) for name, c in candidates.items()}


def _root_leaves(comp: Computation) -> list[str]:
    root = comp.root_instruction
    return list(root.operands) if root.opcode == "tuple" else [root.name]


def _narrow(comp: Computation, inst: Instruction, split: Split, c: dict[str, set[str]]) -> bool:
    """Narrow inst's and its operands' candidates by what inst is; False if inst cannot
    run row by row at all."""
    op = inst.opcode
    if op in ("parameter", "tuple"):
        return True
    if op == "constant":
        c[inst.name] &= {SCALAR}
        return True
    if op == "broadcast":
        return _narrow_broadcast(comp, inst, split, c)
    if op == "reduce":
        source, init = inst.operands
        if reduce_split(comp[source].array_shape, inst.attr("dimensions")) != split:
            return False
        c[inst.name] &= {ROW}
        c[source] &= {FULL}
        c[init] &= {SCALAR}
        return True
    common = set(c[inst.name])  # elementwise ops, reshape, bitcast: one form for all
    for o in inst.operands:
        common &= c[o]
    for name in (inst.name, *inst.operands):
        c[name] = set(common)
    return True


def _narrow_broadcast(comp: Computation, inst: Instruction, split: Split, c: dict[str, set[str]]) -> bool:
    operand = inst.operands[0]
    implied = {form: _broadcast_operand(comp[operand].array_shape, inst.array_shape, inst.attr("dimensions"),
                                        form, split) for form in c[inst.name]}
    c[inst.name] = {form for form, of in implied.items() if of is not None and of in c[operand]}
    c[operand] &= {implied[form] for form in c[inst.name]}
    return True


def _broadcast_operand(operand: ArrayShape, result: ArrayShape, dimensions, form: str, split: Split) -> str | None:
    """The form a broadcast's operand has when its result has `form` (None: impossible)."""
    mapped = [d for k, d in enumerate(dimensions) if operand.dims[k] != 1]
    if mapped != sorted(mapped):
        return None  # it transposes
    big = {d for d in range(result.rank) if result.dims[d] != 1}
    if not set(mapped):
        return SCALAR
    if set(mapped) == big:
        return form  # every element kept in order: the operand is the same kind of array
    if form != FULL:
        return None
    for p in split_points(result, split):
        major, minor = {d for d in big if d < p}, {d for d in big if d >= p}
        if set(mapped) == major:
            return ROW
        if set(mapped) == minor:
            return COL
    return None
