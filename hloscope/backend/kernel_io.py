"""Where a kernel's elemental emitter reads and writes: its buffers, as pointers.

    input_leaves   parameter i of the kernel's computation loads from input buffer i
    store_leaves   a root value (or a tuple of values) stored into the output buffers

Both work with any kernel function that maps a buffer to its pointer (a plain loop
function, a GPU kernel), so every target's kernels read and write the same way.
"""

from __future__ import annotations

from typing import Protocol

from llvmlite import ir

from .buffers import Buffer
from .elemental import ElementalEmitter, Leaf, buffer_leaf
from .emit_context import EmitContext
from .index import Index
from .kernel_spec import KernelSpec
from .llvm_types import storage_type, store


class BufferPointers(Protocol):
    """A kernel function being built: the address of each of its buffers."""

    def pointer(self, buf: Buffer) -> ir.Value: ...


def input_leaves(ctx: EmitContext, kf: BufferPointers, spec: KernelSpec, extra: dict[str, Buffer]) -> dict[str, Leaf]:
    """Parameter i of the computation loads from the buffer of input i (and each `extra`
    instruction from its buffer)."""
    found = {
        p.name: buffer_leaf(ctx, kf.pointer(spec.input_of(p)), p.array_shape)
        for p in spec.comp.parameters
    }
    for name, buf in extra.items():
        found[name] = buffer_leaf(ctx, kf.pointer(buf), buf.shape)
    return found


def store_leaves(em: ElementalEmitter, kf: BufferPointers, value, index: Index, outputs: list[Buffer]) -> None:
    """Store a value (or a tuple of values) at `index` into the output buffers."""
    values = value if isinstance(value, tuple) else (value,)
    b = em.b
    for v, out in zip(values, outputs):
        offset = index.linear_for(b, out.shape)
        ptr = b.gep(kf.pointer(out), [offset], inbounds=True, source_etype=storage_type(out.shape.dtype))
        store(b, v, ptr, out.shape.dtype)
