"""Loop kernels: a loop nest around the elemental value of the root (XLA's LoopEmitter).

Two loop shapes:
  flat   one loop over the linear index, when every array the root reads has the output's
         element count in row-major order and only elementwise ops (and scalar broadcasts,
         reshapes, bitcasts) connect them: `for i in [begin, end): out[i] = f(a[i], b[i])`.
  nested one loop per non-unit output dimension, major to minor, so the innermost loop walks
         contiguous memory: `for i: for j: out[i, j] = a[i, j] + b[j]`.
Both vectorize. The outermost loop runs over [begin, end), so partitions can split it.
Neither interleaves: their iterations are independent (backend/loops.py says why).
"""

from __future__ import annotations

from llvmlite import ir

from ..ir.computation import Computation
from ..ir.opcodes import OPCODES
from ..ir.shape import ArrayShape
from .buffers import leaves
from .elemental import ElementalEmitter
from .huge_trig_loop import emit_exact_loop, emit_trig_loop, has_trig
from .index import Index, is_default_physical
from .kernel_io import input_leaves, loop_elements, one_root_loop, store_leaves
from .kernel_spec import KernelSpec, ModuleContext
from .llvm_types import I64
from .loop_function import LoopFunction, LoopKernel
from .loops import LANES, for_range, for_whole_vectors, loop_nest

FLAT_OPS = {"parameter", "constant", "reshape", "bitcast", "tuple", "get-tuple-element"}


def emit_loop_kernel(mc: ModuleContext, spec: KernelSpec, extra: dict | None = None) -> LoopKernel:
    """A kernel computing every element of the root of spec.comp.

    `extra` maps instructions computed by an earlier kernel (a dot) to their buffers.
    """
    extra = extra or {}
    buffers = spec.inputs + list(extra.values()) + spec.outputs
    kf = LoopFunction(mc.llmod, spec.name, buffers, set(spec.outputs))
    ctx = mc.emit_context(kf.builder)
    em = ElementalEmitter(ctx, spec.comp, input_leaves(ctx, kf, spec, extra))

    def exact_loop(root: str, shape: ArrayShape, outputs) -> ir.Function:
        """`<kernel>.exact(buffers..., begin, end)`: the elements with the exact sin/cos/tan,
        a function of its own so that LLVM can compile it on another core (llvm_split.py)."""
        fn = LoopFunction(mc.llmod, mc.unique_name(f"{spec.name}.exact"), buffers, set(spec.outputs))
        fn_ctx = mc.emit_context(fn.builder)
        exact_em = ElementalEmitter(fn_ctx, spec.comp, input_leaves(fn_ctx, fn, spec, extra))
        emit_exact_loop(exact_em, fn, root, shape, fn.begin, fn.end, outputs)
        fn.finish()
        return fn.fn

    kf.exact_loop = exact_loop
    root = spec.comp.root_instruction
    shapes = leaves(root.shape)
    kernel = LoopKernel(spec.name, spec.instruction, "loop", kf.buffers, work=sum(s.size for s in shapes))
    if one_root_loop(spec.comp):
        emit_loops(em, kf, kernel, root.name, shapes[0], spec.outputs)
    else:  # a multi-output fusion whose results differ in shape (or nest a tuple): one loop nest each
        for operand, outs in loop_elements(spec.comp, spec.outputs, mc.target):  # a variadic reduce has several
            emit_loops(em, kf, None, operand, outs[0].shape, outs)
    kf.finish()
    kernel.function = kf.fn
    return kernel


def emit_loops(em, kf, kernel: LoopKernel | None, root: str, shape: ArrayShape, outputs) -> None:
    """The loop nest over `shape`; kernel (when given) learns the partitionable extent."""
    b = em.b
    whole = kernel is None
    if is_flat(em.comp, root, shape):
        begin, end = (0, shape.size) if whole else (kf.begin, kf.end)
        if has_trig(em.comp):  # sin/cos/tan: the exact reduction only in blocks that need it
            emit_trig_loop(em, kf, root, shape, begin, end, outputs)
        else:
            # partitions start at multiples of the granule (64): with whole vectors in all, every
            # [begin, end) is whole vectors
            loop = for_whole_vectors(b, begin, end) if shape.size % LANES == 0 else \
                for_range(b, begin, end, "i", interleave=False)
            with loop as i:
                store_leaves(em, kf, em.value(root, Index(shape, linear=i)), Index(shape, linear=i), outputs)
        if kernel:
            kernel.extent, kernel.granule, kernel.notes = shape.size, 64, ["flat loop over the linear index"]
            if shape.size % LANES == 0:
                kernel.step = LANES  # its loops run over whole vectors (a row chain keeps to that too)
        return
    order = [d for d in reversed(shape.layout) if shape.dims[d] != 1]
    bounds = [(0, shape.dims[d]) for d in order]
    if order and not whole:
        bounds[0] = (kf.begin, kf.end)
    with loop_nest(b, bounds, [f"i{d}" for d in order], interleave=False) as ivs:
        multi = [I64(0)] * shape.rank
        for d, v in zip(order, ivs):
            multi[d] = v
        index = Index(shape, multi=multi)
        store_leaves(em, kf, em.value(root, index), index, outputs)
    if kernel:
        kernel.extent = shape.dims[order[0]] if order else 1
        kernel.notes = [f"loop nest over dimensions {order} (major to minor)"]


def is_flat(comp: Computation, root: str, shape: ArrayShape) -> bool:
    """Can every array under `root` be read at the output's linear index?"""
    if not is_default_physical(shape):
        return False
    seen, todo = set(), [root]
    while todo:
        inst = comp[todo.pop()]
        if inst.name in seen:
            continue
        seen.add(inst.name)
        if isinstance(inst.shape, ArrayShape) and inst.shape.rank > 0:
            if inst.shape.size != shape.size or not is_default_physical(inst.shape):
                return False
        op = inst.opcode
        if op == "broadcast" and comp[inst.operands[0]].array_shape.rank == 0:
            continue
        row = OPCODES.get(op)
        if op not in FLAT_OPS and not (row and row.elementwise):
            return False
        todo.extend(inst.operands)
    return True
