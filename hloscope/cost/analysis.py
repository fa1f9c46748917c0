"""Per-instruction work, counted the way XLA's HloCostAnalysis counts it.

    flops            elementwise: 1 per output element; dot: 2*M*N*K (an FMA is 2 flops);
                     reduce: (input elements - output elements) * the reducer's flops
    transcendentals  exp, log, tanh, sqrt, rsqrt, power, ... : 1 per element, NOT in flops
    bytes_read       every operand's bytes (a slice reads only what it keeps)
    bytes_written    the result's bytes

A fusion counts its fused instructions' flops, but bytes only at its boundary: each fused
parameter is read once (or only the slices taken of it), the result written once. The
intermediates never touch memory, and that difference is what fusing saves. Fused
instructions still get their own entry (`fused_in`), counted as if they stood alone, so
"what unfused would have cost" can be read off the same table.

Deviations from XLA, kept on purpose: the bytes of a tuple-shaped result are the sum of its
arrays (XLA counts the pointer table), so multi-output ops are not free; bitcast, tuple,
get-tuple-element, parameter and constant touch no memory (as in XLA).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

from ..ir.computation import Computation
from ..ir.conv_dims import ConvDimLabels, parse_dim_labels
from ..ir.instruction import Instruction
from ..ir.memo import per_value
from ..ir.module import HloModule
from ..ir.opcodes import OPCODES
from ..ir.shape import ArrayShape, Shape, TupleShape

# XLA's HandleElementwiseOp list: these count as transcendentals, not flops.
TRANSCENDENTAL = frozenset(
    "exponential exponential-minus-one log log-plus-one logistic power sqrt cbrt rsqrt tanh "
    "sine cosine tan erf atan2".split()
)


def has_transcendental(comp) -> bool:
    """Whether some element of `comp` costs a transcendental function (a long computation)."""
    return any(inst.opcode in TRANSCENDENTAL for inst in comp.instructions)


FREE = frozenset(
    "parameter constant bitcast get-tuple-element tuple after-all opt-barrier partition-id replica-id".split()
)
CALLS = frozenset("while call conditional".split())


@dataclass(frozen=True)
class Cost:
    """One instruction's work: flops, transcendentals and bytes moved."""

    name: str
    opcode: str
    flops: int = 0
    transcendentals: int = 0
    bytes_read: int = 0
    bytes_written: int = 0
    fused_in: str = ""  # the fusion this instruction is part of ("" at top level)
    computation: str = ""

    @property
    def bytes_accessed(self) -> int:
        return self.bytes_read + self.bytes_written

    def as_dict(self) -> dict:
        out = {"name": self.name, "opcode": self.opcode, "flops": self.flops,
               "transcendentals": self.transcendentals, "bytes_read": self.bytes_read,
               "bytes_written": self.bytes_written}
        out["computation"] = self.computation
        return out | ({"fused_in": self.fused_in} if self.fused_in else {})


def elements(shape: Shape) -> int:
    """Elements of an array, or of a tuple's first array (XLA's reduce convention)."""
    if isinstance(shape, ArrayShape):
        return shape.size
    if isinstance(shape, TupleShape):
        arrays = [s for s in shape.leaves() if isinstance(s, ArrayShape)]
        return arrays[0].size if arrays else 0
    return 0


def nbytes(shape: Shape) -> int:
    """Bytes of every array a value is stored as."""
    if isinstance(shape, ArrayShape):
        return shape.byte_size
    if isinstance(shape, TupleShape):
        return sum(s.byte_size for s in shape.leaves() if isinstance(s, ArrayShape))
    return 0


class CostAnalysis:
    """Counts every instruction of a module once; computations are counted once and reused."""

    def __init__(self, module: HloModule):
        self.module = module
        self.costs: dict[str, Cost] = {}  # by name: the entry's first (names may repeat elsewhere)
        self.every: list[Cost] = []  # every instruction of every computation, in module order
        self._totals: dict[str, Cost] = {}
        # fused computation -> its fusion instruction, so fused entries name where they live
        self.fused_by = {inst.called_computations()[0]: inst.name
                         for _, inst in module.all_instructions() if inst.opcode == "fusion"}

    def run(self) -> dict[str, Cost]:
        self.computation_total(self.module.entry_computation.name)
        for comp in self.module:
            self.computation_total(comp.name)
        order = {comp.name: k for k, comp in enumerate(self.module)}
        self.every.sort(key=lambda c: order[c.computation])
        return self.costs

    def computation_total(self, name: str) -> Cost:
        """The sum over a computation's instructions (a reducer's flops per combine)."""
        if name not in self._totals:
            comp = self.module.computation(name)
            fused_in = self.fused_by.get(name, "")
            parts = [self.instruction(comp, inst, fused_in) for inst in comp.instructions]
            self._totals[name] = Cost(name, "computation", sum(p.flops for p in parts),
                                      sum(p.transcendentals for p in parts), sum(p.bytes_read for p in parts),
                                      sum(p.bytes_written for p in parts))
        return self._totals[name]

    def instruction(self, comp: Computation, inst: Instruction, fused_in: str = "") -> Cost:
        if inst.opcode == "fusion":
            cost = self.fusion(comp, inst)
        else:
            flops, trans = self.work(comp, inst)
            read, written = self.bytes(comp, inst)
            cost = Cost(inst.name, inst.opcode, flops, trans, read, written)
        cost = replace(cost, fused_in=fused_in, computation=comp.name)
        self.costs.setdefault(inst.name, cost)
        self.every.append(cost)
        return cost

    # ---- flops ----
    def work(self, comp: Computation, inst: Instruction) -> tuple[int, int]:
        """(flops, transcendentals) of a non-fusion instruction."""
        op, out = inst.opcode, elements(inst.shape)
        if op in TRANSCENDENTAL:
            return 0, out
        if op in ("compare", "select", "clamp", "convert", "reduce-precision") or _elementwise(op):
            return out, 0
        if op == "dot":
            return 2 * out * _contracted(comp, inst), 0
        if op == "convolution":
            return 2 * out * _conv_macs_per_output(comp, inst), 0
        if op == "sort":
            n = elements(comp[inst.operands[0]].shape)
            return n * max(1, math.ceil(math.log2(max(n, 2)))), 0
        called = self._called(inst)
        if op == "reduce":
            return _scaled(called, elements(comp[inst.operands[0]].shape) - out)
        if op == "reduce-window":
            window = inst.attr("window") or ()
            size = math.prod(getattr(d, "size", 1) for d in window)
            return _scaled(called, out * max(size - 1, 0))
        if op in ("map",):
            return _scaled(called, out)
        if op == "scatter":
            return _scaled(called, elements(comp[inst.operands[-1]].shape))
        if op in CALLS:
            parts = [self.computation_total(c) for c in inst.called_computations()]
            if op == "conditional":  # one branch runs: count the dearest
                best = max(parts, key=lambda p: p.flops + p.transcendentals, default=None)
                return (best.flops, best.transcendentals) if best else (0, 0)
            return sum(p.flops for p in parts), sum(p.transcendentals for p in parts)
        return 0, 0

    def _called(self, inst: Instruction) -> Cost | None:
        names = inst.called_computations()
        return self.computation_total(names[-1]) if names else None

    # ---- bytes ----
    def bytes(self, comp: Computation, inst: Instruction) -> tuple[int, int]:
        """(read, written) of a non-fusion instruction standing alone."""
        op = inst.opcode
        if op in FREE:
            return 0, 0
        written = nbytes(inst.shape)
        if op in ("slice", "dynamic-slice"):
            indices = sum(nbytes(comp[o].shape) for o in inst.operands[1:])
            return written + indices, written
        if op == "dynamic-update-slice":  # operand 0 is updated in place
            update = nbytes(comp[inst.operands[1]].shape)
            return update + sum(nbytes(comp[o].shape) for o in inst.operands[2:]), update
        if op in CALLS:
            parts = [self.computation_total(c) for c in inst.called_computations()]
            inner = sum(p.bytes_read for p in parts), sum(p.bytes_written for p in parts)
            return inner
        return sum(nbytes(comp[o].shape) for o in inst.operands), written

    def fusion(self, comp: Computation, inst: Instruction) -> Cost:
        """Fused instructions' flops; bytes at the fusion's boundary only."""
        fused = self.module.computation(inst.called_computations()[0])
        inner = self.computation_total(fused.name)
        read = sum(parameter_read_bytes(fused, p) for p in fused.parameters)
        return Cost(inst.name, "fusion", inner.flops, inner.transcendentals, read, nbytes(inst.shape))


def _elementwise(opcode: str) -> bool:
    info = OPCODES.get(opcode)
    return bool(info and info.elementwise and opcode not in ("copy", "bitcast-convert", "real", "imag"))


def _scaled(called: Cost | None, count: int) -> tuple[int, int]:
    if called is None:
        return count, 0
    return called.flops * count, called.transcendentals * count


def _contracted(comp: Computation, inst: Instruction) -> int:
    lhs = comp[inst.operands[0]].array_shape
    return math.prod(lhs.dims[d] for d in inst.attr("lhs_contracting_dims", ()))


def _conv_macs_per_output(comp: Computation, inst: Instruction) -> int:
    """Kernel elements per output feature: spatial window * input features per group (an upper
    bound: XLA also skips the taps that fall on padding)."""
    kernel = comp[inst.operands[1]].array_shape
    labels = inst.attr("dim_labels")
    dims = labels if isinstance(labels, ConvDimLabels) else parse_dim_labels(str(labels))
    return kernel.size // max(kernel.dims[dims.kernel_output_feature], 1)


def parameter_read_bytes(fused: Computation, param: Instruction) -> int:
    """Bytes a fusion reads of one parameter: only the slices it takes, else the whole once
    (XLA's FusionParameterReadBytes, without nested fusions)."""
    users = [fused[u] for u in fused.users(param.name)]
    slices = [u for u in users if u.opcode in ("slice", "dynamic-slice") and u.operands[0] == param.name]
    if users and len(slices) == len(users):
        return sum(nbytes(u.shape) for u in slices)
    return nbytes(param.shape)


@dataclass(frozen=True)
class Analyzed:
    """A module's counts, without the module (a cache keyed by the module must not keep it)."""

    costs: dict[str, Cost]
    every: list[Cost]
    entry_total: Cost


@per_value
def analysis(module: HloModule) -> Analyzed:
    """The module's counts, made once while the module lives (views ask again and again)."""
    done = CostAnalysis(module)
    done.run()
    return Analyzed(done.costs, done.every, done.computation_total(module.entry_computation.name))


def analyze(module: HloModule) -> dict[str, Cost]:
    """{instruction name: Cost} for every instruction of every computation, fused included
    (shared: do not change it)."""
    return analysis(module).costs


def analyze_all(module: HloModule) -> list[Cost]:
    """Every instruction's Cost in module order (names repeated across computations kept)."""
    return analysis(module).every


def module_totals(module: HloModule) -> Cost:
    """The entry computation's total: what running the program once costs."""
    return analysis(module).entry_total
