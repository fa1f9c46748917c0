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

XLA:CPU turns long windows into a scan as well (ReduceWindowRewriter: a blocked scan, for
any reducer, assumed associative). Rows are split across threads; the scan itself is a
dependency chain per row.
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
from ..loops import for_range, loop_nest


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
    """Stride 1 and no dilation or reversal; other dimensions also size 1 and unpadded."""
    plain = w.stride == 1 and w.lhs_dilate == 1 and w.rhs_dilate == 1 and not w.reversal
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
    with em.scope(), loop_nest(em.b, bounds, [f"row{d}" for d in rows]) as ivs:
        row = _Row(em, kf, spec, root, dict(zip(rows, ivs)), plan)
        row.suffix() if plan.suffix else row.prefix()
    kernel.extent = in_shape.dims[rows[0]] if rows else 1
    kernel.notes.append(plan.reason)
    kf.finish()
    kernel.function = kf.fn
    return kernel


class _Row:
    """The scan of one row: reads x[..., j, ...] and writes out[..., i, ...] along plan.dim."""

    def __init__(self, em, kf, spec: KernelSpec, root: Instruction, fixed: dict, plan: ScanPlan):
        self.em, self.b, self.kf, self.spec, self.plan = em, em.b, kf, spec, plan
        self.fixed, self.root = fixed, root
        half = len(root.operands) // 2
        self.inputs, self.reducer = root.operands[:half], root.attr("to_apply")
        self.dtypes = [leaf.dtype for leaf in leaves(root.shape, root.name)]
        self.inits = [em.value(i, Index.scalar(em.comp[i].array_shape)) for i in root.operands[half:]]
        self.out_shape: ArrayShape = leaves(root.shape)[0]

    def _multi(self, rank: int, at):
        multi = [self.fixed.get(d, I64(0)) for d in range(rank)]
        multi[self.plan.dim] = at
        return multi

    def _read(self, j) -> list:
        shapes = [self.em.comp[x].array_shape for x in self.inputs]
        return [self.em.value(x, Index(s, multi=self._multi(s.rank, j))) for x, s in zip(self.inputs, shapes)]

    def _write(self, i, values: list) -> None:
        index = Index(self.out_shape, multi=self._multi(self.out_shape.rank, i))
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
        slots = accumulators(self.em, self.inits)
        for i in self._each(0, min(out, max(0, -c)), "empty"):
            self._write(i, self.inits)
        for j in self._each(0, min(n, max(0, c)), "lead"):
            self._step(slots, j)
        for j in self._each(max(0, c), min(n, out + c), "scan"):
            self._write(b.sub(j, I64(c)), self._step(slots, j))
        for i in self._each(max(0, n - c), out, "full"):
            self._write(i, [b.load(s) for s in slots])

    def _step(self, slots: list, j) -> list:
        new = self._fold([self.b.load(s) for s in slots], self._read(j))
        for s, v in zip(slots, new):
            self.b.store(v, s)
        return new

    def suffix(self) -> None:
        b, n, out, p = self.b, self.plan.n, self.plan.out, self.plan.offset
        for i in self._each(n + p, out, "empty"):
            self._write(i, self.inits)
        slot = accumulators(self.em, self._read(I64(n - 1)))[0]
        if n - 1 + p < out:
            self._write(I64(n - 1 + p), self._fold(self.inits, [b.load(slot)]))
        for j in self._each(max(0, out - p), n - 1, "tail", descending=True):
            b.store(self._fold(self._read(j), [b.load(slot)])[0], slot)
        for j in self._each(0, min(n - 1, out - p), "scan", descending=True):
            t = self._fold(self._read(j), [b.load(slot)])[0]
            b.store(t, slot)
            self._write(b.add(j, I64(p)), self._fold(self.inits, [t]))
        if min(p, out) > 0:
            whole = self._fold(self.inits, [b.load(slot)])
            for i in self._each(0, min(p, out), "head"):
                self._write(i, whole)

