"""Where a kernel's elemental emitter reads and writes: its buffers, as pointers.

    input_leaves   parameter i of the kernel's computation loads from input buffer i
    store_leaves   a root value (or a tuple of values) stored into the output buffers
    one_root_loop  whether one loop over the root computes every output
    loop_elements  else, each root element with its buffers, for a loop each
    element_outputs each root element with its output buffers (a tuple-shaped element,
                   like a variadic reduce in a multi-output fusion, owns several)

Both work with any kernel function that maps a buffer to its pointer (a plain loop
function, a GPU kernel), so every target's kernels read and write the same way.
"""

from __future__ import annotations

from typing import Protocol

from llvmlite import ir

from ..ir.computation import Computation
from .buffers import ArrayStorage, leaves
from .elemental import ElementalEmitter, Leaf, buffer_leaf
from .emit_context import EmitContext
from .index import Index
from .kernel_spec import KernelSpec
from .unsupported import unsupported
from .llvm_types import storage_type, store


class BufferPointers(Protocol):
    """A kernel function being built: the address of each of its buffers."""

    def pointer(self, buf: ArrayStorage) -> ir.Value: ...


def input_leaves(ctx: EmitContext, kf: BufferPointers, spec: KernelSpec, extra: dict[str, ArrayStorage]) -> dict[str, Leaf]:
    """Parameter i of the computation loads from the buffer of input i (and each `extra`
    instruction from its buffer)."""
    found = {
        p.name: buffer_leaf(ctx, kf.pointer(spec.input_of(p)), p.array_shape)
        for p in spec.comp.parameters
    }
    for name, buf in extra.items():
        found[name] = buffer_leaf(ctx, kf.pointer(buf), buf.shape)
    return found


def store_leaves(em: ElementalEmitter, kf: BufferPointers, value, index: Index, outputs: list[ArrayStorage]) -> None:
    """Store a value (or a tuple of values, nested or not) at `index` into the output buffers,
    one leaf each, in the order of the shape's leaves."""
    values = flat_values(value)
    assert len(values) == len(outputs), f"{len(values)} values for {len(outputs)} output buffers"
    b = em.b
    for v, out in zip(values, outputs):
        offset = index.linear_for(b, out.shape)
        ptr = b.gep(kf.pointer(out), [offset], inbounds=True, source_etype=storage_type(out.shape.dtype))
        store(b, v, ptr, out.shape.dtype)


def flat_values(value) -> list:
    """The leaves of an elemental value, depth first (the order of Shape.leaves())."""
    if isinstance(value, tuple):
        return [leaf for v in value for leaf in flat_values(v)]
    return [value]


def element_outputs(comp: Computation, outputs: list[ArrayStorage]) -> list[tuple[str, list[ArrayStorage]]]:
    """Each element of comp's root tuple (or the root itself) with its output buffers: the
    outputs are the root's leaves, so a tuple-shaped element (a variadic reduce next to an
    elementwise output) takes as many consecutive buffers as it has leaves."""
    root = comp.root_instruction
    elements = list(root.operands) if root.opcode == "tuple" else [root.name]
    slices, start = [], 0
    for name in elements:
        n = len(leaves(comp[name].shape))
        slices.append((name, outputs[start : start + n]))
        start += n
    assert start == len(outputs), f"{comp.name}: {start} root leaves for {len(outputs)} output buffers"
    return slices


def one_root_loop(comp: Computation) -> bool:
    """Whether one loop over the root's index computes every output: all root leaves have
    the same dimensions and no root element is itself a tuple (the elemental tuple rule reads
    array operands; a variadic reduce element gets a loop of its own, see element_outputs)."""
    root = comp.root_instruction
    if len({s.dims for s in leaves(root.shape)}) != 1:
        return False
    return root.opcode != "tuple" or not any(comp[o].shape.is_tuple for o in root.operands)


def loop_elements(comp: Computation, outputs: list[ArrayStorage], target: str) -> list[tuple[str, list[ArrayStorage]]]:
    """element_outputs for loop kernels, which run one loop per element over its first leaf:
    a tuple element whose leaves differ in shape (a tuple op nested in the root) is refused,
    since that loop would leave part of a larger leaf unwritten."""
    slices = element_outputs(comp, outputs)
    for name, outs in slices:
        if len({o.shape.dims for o in outs}) > 1:
            raise unsupported(target, "a fusion root element that is a tuple of differently shaped arrays", name)
    return slices
