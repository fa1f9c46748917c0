"""Cumulative reduce-windows as one scan per row (O(N) instead of O(N^2)).

jax lowers cumsum, cumprod, cummax and cumlogsumexp to a reduce-window whose window along
one dimension is as long as that dimension, padded so it covers everything before each
position (`size=1x4096 pad=0_0x4095_0`), or everything after it (reverse=True:
`pad=0_0x0_4095`). The elemental rule folds every window on its own: N(N+1)/2 reducer
calls per row. Here each row is one pass:

  prefix   every window starts at input 0:      acc = init
           out[i] folds x[0 .. i+c]                  for j: acc = f(acc, x[j]); out[j-c] = acc
           the same order the window folds in, so it is exact for ANY reducer.
  suffix   every window ends at input N-1:      t = x[N-1]
           out[i] folds x[i-p .. N-1]                for j = N-2 .. 0: t = f(x[j], t); out[j+p] = f(init, t)
           regrouped: only for reducers backend/associative.py proves associative (the
           others keep the elemental rule's exact window order).

XLA turns such windows longer than its base length into a two-level scan as well
(ReduceWindowRewriter: blocks scanned on their own, then the blocks' totals scanned and
combined, forward and reverse alike); it does not look at the reducer, as HLO assumes every
reducer associative. Here rows are split across threads and LANES rows are scanned
together, so the core overlaps their dependency chains.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from ...ir.computation import Computation
from ...ir.instruction import Instruction
from ...ir.module import HloModule
from ...ir.shape import ArrayShape
from ..associative import is_associative
from ..buffers import leaves
from ..elemental import ElementalEmitter
from ..elemental_reduce import accumulators, apply_reducer
from ..index import Index
from ..kernel_io import input_leaves, store_leaves
from ..kernel_spec import KernelSpec, ModuleContext
from ..llvm_types import I64
from ..loop_function import LoopFunction, LoopKernel
from ..loops import as_i64, for_range, loop_nest

LANES = 8  # rows scanned together: 8 independent dependency chains instead of one


@dataclass(frozen=True)
class ScanPlan:
    """A reduce-window that is a scan along `dim` (n inputs, out outputs along it)."""

    dim: int
    n: int
    out: int
    suffix: bool  # windows reach the end (reverse cumulative) rather than the start
    offset: int  # prefix: out[i] folds x[0 .. i+offset]; suffix: x[i-offset .. n-1]
    reason: str


def scan_plan(hlo: HloModule, comp: Computation) -> ScanPlan | None:
    """The scan form of comp's root, a reduce-window, or None (see the module docstring)."""
    root = comp.root_instruction
    if root.opcode != "reduce-window":
        return None
    inputs = root.operands[: len(root.operands) // 2]
    in_shape = comp[inputs[0]].array_shape
    window = root.attr("window")
    long_dims = [d for d, w in enumerate(window) if (w.size, w.pad_low, w.pad_high) != (1, 0, 0)]
    if len(long_dims) != 1 or any(not _plain(w, d in long_dims) for d, w in enumerate(window)):
        return None
    d = long_dims[0]
    w, n, out = window[d], in_shape.dims[d], leaves(root.shape)[0].dims[d]
    if n == 0 or out == 0:
        return None
    if out - 1 - w.pad_low <= 0:
        return ScanPlan(d, n, out, False, w.size - 1 - w.pad_low,
                        f"prefix scan along dimension {d}: every window starts at the first element, "
                        "folded in the window's own order")
    if w.size - 1 - w.pad_low >= n - 1 and len(inputs) == 1 and is_associative(hlo, root.attr("to_apply")):
        return ScanPlan(d, n, out, True, w.pad_low,
                        f"suffix scan along dimension {d}: every window ends at the last element; "
                        f"regrouped, as {root.attr('to_apply')} is associative")
    return None


def _plain(w, scanned: bool) -> bool:
    """Stride 1, no negative padding, no dilation or reversal; other dimensions also size 1
    and unpadded."""
    plain = w.stride == 1 and w.lhs_dilate == 1 and w.rhs_dilate == 1 and not w.reversal
    plain = plain and w.pad_low >= 0 and w.pad_high >= 0
    return plain and (scanned or (w.size, w.pad_low, w.pad_high) == (1, 0, 0))


def emit_scan_kernel(mc: ModuleContext, spec: KernelSpec, plan: ScanPlan) -> LoopKernel:
    """The scan kernel of spec.comp, whose root is a reduce-window with `plan`."""
    kf = LoopFunction(mc.llmod, spec.name, spec.inputs + spec.outputs, set(spec.outputs))
    ctx = mc.emit_context(kf.builder)
    em = ElementalEmitter(ctx, spec.comp, input_leaves(ctx, kf, spec, {}))
    root = spec.comp.root_instruction
    in_shape = spec.comp[root.operands[0]].array_shape
    rows = [d for d in reversed(in_shape.layout) if d != plan.dim and in_shape.dims[d] != 1]
    bounds: list[tuple] = [(0, in_shape.dims[d]) for d in rows]
    if rows:
        bounds[0] = (kf.begin, kf.end)
    kernel = LoopKernel(spec.name, spec.instruction, "scan", kf.buffers, work=in_shape.size)
    scan = _Scan(em, kf, spec, root, plan)
    with em.scope(), loop_nest(em.b, bounds[:-1], [f"row{d}" for d in rows[:-1]]) as ivs:
        fixed = dict(zip(rows[:-1], ivs))
        if rows:
            scan.in_lanes(fixed, rows[-1], *bounds[-1])
        else:
            scan.rows([fixed])
    kernel.extent = in_shape.dims[rows[0]] if rows else 1
    kernel.notes.append(f"{plan.reason}; {LANES} rows at a time")
    kf.finish()
    kernel.function = kf.fn
    return kernel


class _Scan:
    """Scans rows: reads x[..., j, ...] and writes out[..., i, ...] along plan.dim, for
    LANES rows at once (independent dependency chains the core overlaps)."""

    def __init__(self, em, kf, spec: KernelSpec, root: Instruction, plan: ScanPlan):
        self.em, self.b, self.kf, self.spec, self.plan, self.root = em, em.b, kf, spec, plan, root
        half = len(root.operands) // 2
        self.inputs, self.init_names, self.reducer = root.operands[:half], root.operands[half:], root.attr("to_apply")
        self.dtypes = [leaf.dtype for leaf in leaves(root.shape, root.name)]
        self.out_shape: ArrayShape = leaves(root.shape)[0]
        self.lanes: list[dict] = []
        self.inits: list = []

    def in_lanes(self, fixed: dict, dim: int, start, stop) -> None:
        """Rows [start, stop) of `dim`: blocks of LANES rows, then the rest one at a time."""
        b = self.b
        start, stop = as_i64(start), as_i64(stop)
        blocks = b.udiv(b.sub(stop, start), I64(LANES))
        with self.em.scope(), for_range(b, 0, blocks, "block") as block:
            first = b.add(start, b.mul(block, I64(LANES)))
            self.rows([{**fixed, dim: b.add(first, I64(r))} for r in range(LANES)])
        with self.em.scope(), for_range(b, b.add(start, b.mul(blocks, I64(LANES))), stop, "rest") as row:
            self.rows([{**fixed, dim: row}])

    def rows(self, lanes: list[dict]) -> None:
        self.lanes = lanes
        self.inits = [self.em.value(i, Index.scalar(self.em.comp[i].array_shape)) for i in self.init_names]
        self.suffix() if self.plan.suffix else self.prefix()

    def _multi(self, lane: dict, rank: int, at):
        multi = [lane.get(d, I64(0)) for d in range(rank)]
        multi[self.plan.dim] = at
        return multi

    def _read(self, lane: dict, j) -> list:
        shapes = [self.em.comp[x].array_shape for x in self.inputs]
        return [self.em.value(x, Index(s, multi=self._multi(lane, s.rank, j))) for x, s in zip(self.inputs, shapes)]

    def _write(self, lane: dict, i, values: list) -> None:
        index = Index(self.out_shape, multi=self._multi(lane, self.out_shape.rank, i))
        store_leaves(self.em, self.kf, values[0] if len(values) == 1 else tuple(values), index, self.spec.outputs)

    def _fold(self, accs: list, values: list) -> list:
        return apply_reducer(self.em, self.reducer, accs, values, self.dtypes)

    def _each(self, start: int, stop: int, name: str, descending: bool = False) -> Iterator:
        """`for j in [start, stop)` (from stop-1 down when descending): the body of a Python
        for over this is emitted once, inside the loop; an empty range emits nothing."""
        if start >= stop:
            return
        with self.em.scope(), for_range(self.b, 0, stop - start, name) as k:
            yield self.b.sub(I64(stop - 1), k) if descending else self.b.add(I64(start), k)

    def prefix(self) -> None:
        b, n, out, c = self.b, self.plan.n, self.plan.out, self.plan.offset
        slots = [accumulators(self.em, self.inits) for _ in self.lanes]
        for i in self._each(0, min(out, max(0, -c)), "empty"):
            for lane in self.lanes:
                self._write(lane, i, self.inits)
        for j in self._each(0, min(n, max(0, c)), "lead"):
            for lane, lane_slots in zip(self.lanes, slots):
                self._step(lane, lane_slots, j)
        for j in self._each(max(0, c), min(n, out + c), "scan"):
            for lane, lane_slots in zip(self.lanes, slots):
                self._write(lane, b.sub(j, I64(c)), self._step(lane, lane_slots, j))
        for i in self._each(max(0, n - c), out, "full"):
            for lane, lane_slots in zip(self.lanes, slots):
                self._write(lane, i, [b.load(s) for s in lane_slots])

    def _step(self, lane: dict, slots: list, j) -> list:
        new = self._fold([self.b.load(s) for s in slots], self._read(lane, j))
        for s, v in zip(slots, new):
            self.b.store(v, s)
        return new

    def suffix(self) -> None:
        b, n, out, p = self.b, self.plan.n, self.plan.out, self.plan.offset
        for i in self._each(n + p, out, "empty"):
            for lane in self.lanes:
                self._write(lane, i, self.inits)
        slots = [accumulators(self.em, self._read(lane, I64(n - 1)))[0] for lane in self.lanes]
        if n - 1 + p < out:
            for lane, slot in zip(self.lanes, slots):
                self._write(lane, I64(n - 1 + p), self._fold(self.inits, [b.load(slot)]))
        for j in self._each(max(0, out - p), n - 1, "tail", descending=True):
            for lane, slot in zip(self.lanes, slots):
                b.store(self._fold(self._read(lane, j), [b.load(slot)])[0], slot)
        for j in self._each(0, min(n - 1, out - p), "scan", descending=True):
            for lane, slot in zip(self.lanes, slots):
                t = self._fold(self._read(lane, j), [b.load(slot)])[0]
                b.store(t, slot)
                self._write(lane, b.add(j, I64(p)), self._fold(self.inits, [t]))
        if min(p, out) > 0:
            wholes = [self._fold(self.inits, [b.load(slot)]) for slot in slots]
            for i in self._each(0, min(p, out), "head"):
                for lane, whole in zip(self.lanes, wholes):
                    self._write(lane, i, whole)
