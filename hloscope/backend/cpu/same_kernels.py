"""Kernels with the same code: a module's repeated fusions are lowered once.

A model's repeated layers fuse into computations that differ only in their names (a GPT-2
training step: 106 kernels, 87 distinct; benchmarks/generate.py's branchy modules: a
quarter distinct). LLVM would merge the identical functions (MergeFunctions, llvm_child.py),
but only after hloscope had built each one's IR in Python, printed it, and LLVM had parsed
it: at 20,000 instructions that is most of the lowering. So the CPU's kernel choices keep
each loop or reduction kernel they emit under its code key, and a later kernel with the
same key calls the same function with its own buffers (and the first's scratch).

The code key is everything the emitted function depends on:
  - the fused computation, its instructions renamed by position (so `add.17(p.3, c.4)` and
    `add.90(p.8, c.9)` agree when their operands do); attributes, literals and the names of
    called computations (a reduce's `to_apply`) are compared as they are;
  - its arguments: kind, alignment, size and shape of each distinct buffer, which inputs
    and outputs share an argument, which arguments overlap (that decides `noalias` and
    in-place code), and a constant's identity (its value may be folded into the code).
A kernel computing part of an instruction (after a dot, or one of a split reduction's
chunks) is never shared.
"""

from __future__ import annotations

import dataclasses

from ...ir.computation import Computation
from ..buffers import ArrayStorage
from ..kernel_spec import KernelSpec, distinct_buffers, location
from ..loop_function import LoopKernel


def code_key(kind: str, spec: KernelSpec) -> tuple:
    """What the kernel of `spec` (emitted as `kind`) is made from (see the module docstring)."""
    args = distinct_buffers(spec.inputs + spec.outputs)
    where = {location(b): i for i, b in enumerate(args)}
    facts = tuple((b.kind, b.align, b.size, b.shape, b.value if b.kind == "constant" else "") for b in args)
    overlapping = tuple((i, j) for i in range(len(args)) for j in range(i + 1, len(args)) if args[i].overlaps(args[j]))
    return (kind, computation_key(spec.comp), facts, overlapping,
            tuple(where[location(b)] for b in spec.inputs), tuple(where[location(b)] for b in spec.outputs))


def computation_key(comp: Computation) -> tuple:
    """The computation with its instructions named by position and metadata left out."""
    names = {inst.name: f"%{i}" for i, inst in enumerate(comp.instructions)}
    return (tuple(inst.replace(name=names[inst.name], operands=tuple(names[o] for o in inst.operands), metadata=None)
                  for inst in comp.instructions), names[comp.root])


def same_code(first: LoopKernel, spec: KernelSpec) -> LoopKernel:
    """A kernel for `spec` that calls `first`'s function (their code keys are equal). Scratch
    the first kernel has for itself (a convolution's im2col rows) is shared: kernels run one
    after another, and each is done with its scratch when it returns."""
    buffers: list[ArrayStorage] = distinct_buffers(spec.inputs + spec.outputs)  # LoopFunction's argument order
    if first.spec is not None:
        own = {location(b) for b in first.spec.inputs + first.spec.outputs}
        buffers += [b for b in first.buffers if location(b) not in own]
    return dataclasses.replace(first, name=spec.name, instruction=spec.instruction, buffers=buffers, partitions=1,
                               notes=[*first.notes, f"same code as {first.name}: a repeated computation, "
                                                    "lowered and compiled once"], spec=spec)
