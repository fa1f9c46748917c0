"""From the computations of a row program's instructions to its ops (drafts.py).

Each computation is read in definition order with the forms forms.py found: a parameter is
its buffer's row (or, for a buffer an earlier computation of the program wrote, the value it
wrote), a broadcast or reshape is its operand seen another way, and every other op is an op
of the program:

    exp(x - m)      v0 = subtract x[r, :], m[r]        a vector minus a row's value
                    v1 = exponential v0

An op computed twice (layer norm's two fusions both subtract the mean) is computed once.
Results go to their buffers, except those nothing after the program reads (`internal`):
softmax's exponentials are read back by the division in the same program, never written.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .....ir.computation import Computation
from .....ir.instruction import Instruction
from ....buffers import ArrayStorage
from ....kernel_spec import location
from .drafts import Draft, Value
from .forms import COL, FULL, ROW, SCALAR, Split
from .ops import BINARY, COMMUTATIVE, UNARY
from .program import ELEMENT_BYTES, Slot

VIEWS = ("broadcast", "reshape", "bitcast", "copy", "convert")  # the same values, seen another way


@dataclass
class Member:
    """One instruction of the program: what it computes, its buffers, its values' forms."""

    inst: Instruction
    comp: Computation
    inputs: list[ArrayStorage]  # by parameter number
    outputs: list[ArrayStorage]  # by root leaf
    forms: dict[str, str]
    reducers: dict[str, str]  # each reduce's op (add, maximum, minimum)
    kernel_name: str = ""


class Translator:
    """Builds one program's drafts from its members, in order (see the module docstring)."""

    def __init__(self, dtype: str, split: Split, buffers: list[ArrayStorage], internal: set[ArrayStorage], defer_outputs: bool):
        self.dtype, self.split, self.bytes = dtype, split, ELEMENT_BYTES[dtype]
        self.buffers = buffers  # the kernel's pointer table (then the constants)
        self.internal = internal
        self.defer_outputs = defer_outputs  # an output may be a parameter's memory (donation)
        self.values: list[Value] = []
        self.drafts: list[Draft] = []
        self.constants: list[float] = []
        self.held: dict[tuple, int] = {}  # what a buffer holds at the row being run
        self.numbered: dict[tuple, int] = {}  # (kind, op, operands) -> the value: one computed twice is one
        self.read: set[tuple] = set()  # the locations the program reads
        self.member_number = 0  # the member being translated

    # ---------------------------------------------------------------- values
    def _new(self, vector: bool, moves: bool, home: Slot | None = None) -> int:
        self.values.append(Value(vector, moves, home))
        return len(self.values) - 1

    def _emit(self, kind: str, op: str, ins: tuple[int, ...], source: str, vector: bool | None = None) -> int:
        key = (kind, op, ins)
        if key in self.numbered:
            return self.numbered[key]
        operands = [self.values[v] for v in ins]
        moves = any(v.moves for v in operands)
        dst = self._new(any(v.vector for v in operands) if vector is None else vector, moves)
        self.drafts.append(Draft(kind, op, (dst,), ins, source, self.member_number))
        self.numbered[key] = dst
        return dst

    def buffer_slot(self, buf: ArrayStorage, form: str) -> Slot:
        where = [location(b) for b in self.buffers].index(location(buf))
        n, size = self.split.width, self.bytes
        advance, row_stride, vector = {FULL: (n * size, n, True), ROW: (size, 1, False),
                                       COL: (0, 0, True), SCALAR: (0, 0, False)}[form]
        label = {FULL: f"{buf.value}[r, :]", ROW: f"{buf.value}[r]", COL: f"{buf.value}[:]", SCALAR: buf.value}[form]
        return Slot(where, 0, advance, row_stride, vector, label)

    def _input(self, buf: ArrayStorage, form: str) -> int:
        found = self.held.get(location(buf))
        if found is not None:
            return found
        self.read.add(location(buf))
        key = ("input", form, (location(buf),))
        if key not in self.numbered:
            slot = self.buffer_slot(buf, form)
            self.numbered[key] = self._new(slot.vector, form in (FULL, ROW), slot)
        return self.numbered[key]

    def _constant(self, value: float) -> int:
        key = ("constant", repr(value), ())
        if key not in self.numbered:
            self.constants.append(value)
            offset = (len(self.constants) - 1) * self.bytes
            self.numbered[key] = self._new(False, False, Slot(len(self.buffers), offset, 0, 0, False, repr(value)))
        return self.numbered[key]

    # ---------------------------------------------------------------- members
    def member(self, m: Member, number: int) -> None:
        """m's ops (it is member `number`), and its results written (or held for the members after it)."""
        self.member_number = number
        first = len(self.drafts)
        env: dict[str, int] = {}
        for inst in m.comp.instructions:
            if inst.opcode != "tuple":
                env[inst.name] = self._instruction(m, inst, env)
        self._results(m, env, first)

    def _instruction(self, m: Member, inst: Instruction, env: dict[str, int]) -> int:
        op, name = inst.opcode, inst.name
        if op == "parameter":
            number = inst.parameter_number
            assert number is not None, "a verified parameter has a number"
            return self._input(m.inputs[number], m.forms[name])
        if op == "constant":
            assert inst.literal is not None, "groups.py takes only scalar constants with their value"
            return self._constant(float(np.asarray(inst.literal.value).reshape(())))
        if op in VIEWS:
            return env[inst.operands[0]]
        args = tuple(env[o] for o in inst.operands)
        if op in UNARY:
            return self._emit("unary", op, args, name)
        if op in BINARY:
            a, b = args
            if op in COMMUTATIVE and not self.values[a].vector and self.values[b].vector:
                a, b = b, a  # the interpreter's value-vector loop is for the ops that do not commute
            return self._emit("binary", op, (a, b), name)
        assert op == "reduce", f"{op} is not in a row program (groups.py checks)"
        source, init = args
        if not self.values[source].vector:  # a sum of copies must round as the copies would
            source = self._emit("broadcast", "", (source,), name, vector=True)
        return self._emit("reduce", m.reducers[name], (source, init), name, vector=False)

    def _results(self, m: Member, env: dict[str, int], first: int) -> None:
        number = self.member_number
        root = m.comp.root_instruction
        leaves = list(root.operands) if root.opcode == "tuple" else [root.name]
        mine = {out for d in self.drafts[first:] for out in d.outs}
        deferred = []
        for leaf, out in zip(leaves, m.outputs):
            value = env[leaf]
            if out in self.internal:
                self.held[location(out)] = value
                continue
            slot = self.buffer_slot(out, m.forms[leaf])
            v = self.values[value]
            in_place = location(out) in self.read or (self.defer_outputs and out.kind == "output")
            if v.home is None and v.moves and v.vector == slot.vector and not in_place and value in mine:
                v.home = slot  # the op that computes it writes the buffer's row
            else:
                deferred.append((value, slot, leaf))
            self.held[location(out)] = value
        for value, slot, leaf in deferred:  # after the member's last read of what they overwrite
            kind = "copy" if self.values[value].vector or not slot.vector else "broadcast"
            self.drafts.append(Draft(kind, "", (self._new(slot.vector, True, slot),), (value,), leaf, number))
