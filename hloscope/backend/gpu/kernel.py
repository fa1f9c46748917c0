"""A GPU kernel's LLVM function, its launch configuration, and the module-wide context.

Every kernel takes one generic pointer per distinct buffer it reads or writes (parameters,
outputs and temporaries, all in the executable's one device arena), in a fixed order:

    define ptx_kernel void @name(ptr noalias %buffer0, ptr noalias %buffer1, ...)

Array constants are not arguments: they are globals of the module (PTX `.global`, with
their bytes in the PTX text), read in place. The launch configuration (grid, block,
static shared memory) is decided by the kernel emitter and kept with the kernel, since the
executable launches exactly what was compiled (as the record's `Launch`).
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator, Protocol

from llvmlite import ir

from ...compilation.record import Launch  # the record's: what the emitter decides is what is shown
from ...ir.computation import Computation
from ..llvm_types import I64, PTR, VOID, emitted
from ..buffers import ArrayStorage
from ..kernel_spec import ModuleContext, distinct_buffers, llvm_name, location

MAX_BLOCKS = 65535 * 4  # grid-stride kernels never need more blocks than this


class ThreadModel(Protocol):
    """Every GPU-only construct a kernel uses: NVPTX's (nvptx.Nvptx), or an emulation of it
    on the CPU (the tests' emulator), so kernel emitters never spell an intrinsic."""

    name: str
    triple: str

    def sreg(self, b: ir.IRBuilder, register: str) -> ir.Value: ...

    def barrier(self, b: ir.IRBuilder) -> None: ...

    def shuffle_xor(self, b: ir.IRBuilder, word: ir.Value, lane_mask: int) -> ir.Value: ...

    def shared_array(self, llmod: ir.Module, ty: ir.Type, count: int, name: str) -> ir.Value: ...

    def mark_kernel(self, llmod: ir.Module, fn: ir.Function) -> None: ...

    def launch_bound(self, llmod: ir.Module, fn: ir.Function, block: tuple) -> None: ...

    def global_pointer(self, b: ir.IRBuilder, ptr: ir.Argument) -> ir.Value: ...


@dataclass
class GpuKernel:
    """An emitted kernel: its function, argument buffers in order, launch and notes."""

    name: str
    instruction: str
    kind: str  # loop, row-reduce, column-reduce, reduce-loop, sort-bitonic, dot-tiled
    buffers: list[ArrayStorage]
    launch: Launch
    notes: list[str] = field(default_factory=list)
    function: ir.Function | None = None
    elements: int = 0  # output elements (for the report)


@dataclass
class GpuModuleContext(ModuleContext):
    """State shared by all kernels of one LLVM module, with the GPU's thread model."""

    threads: ThreadModel
    block_size: int = 256
    computation: Computation | None = None  # the computation being lowered (whose constants kernels read)

    def kernel_name(self, text: str) -> str:
        """A unique name PTX accepts as is: letters, digits and '_' (NVPTX would otherwise
        rewrite `fusion.1` as `fusion_$_1`, and the host must look kernels up by name)."""
        base = re.sub(r"[^A-Za-z0-9_]", "_", text)
        base = base if base and not base[0].isdigit() else "k_" + base
        name, n = base, 1
        while name in self.names:
            name, n = f"{base}_{n}", n + 1
        self.names.add(name)
        return name


class GpuKernelFunction:
    """Declares a kernel and maps buffers to its (global-memory) pointer arguments."""

    def __init__(self, mc: GpuModuleContext, name: str, buffers: list[ArrayStorage], writes: set[ArrayStorage]):
        self.mc = mc
        self.buffers = distinct_buffers([b for b in buffers if b.kind != "constant"])
        self.fn = ir.Function(mc.llmod, ir.FunctionType(VOID, [PTR] * len(self.buffers)), mc.kernel_name(name))
        self.fn.attributes.add("nounwind")
        mc.threads.mark_kernel(mc.llmod, self.fn)
        for arg, buf in zip(self.fn.args, self.buffers):
            arg.name = llvm_name(buf.value)
            if not any(o != buf and o.overlaps(buf) and (o in writes or buf in writes) for o in self.buffers):
                arg.add_attribute("noalias")
            arg.attributes.align = buf.align
        self.slots = self.fn.append_basic_block("entry")  # stack slots only (EmitContext.alloca)
        self.builder = ir.IRBuilder(self.fn.append_basic_block("body"))
        self._pointers = [mc.threads.global_pointer(self.builder, a) for a in self.fn.args]
        self.shared_bytes = 0

    def pointer(self, buf: ArrayStorage) -> ir.Value:
        """The address of a buffer inside this kernel (a constant is its module global)."""
        if buf.kind == "constant":
            comp = self.mc.computation or self.mc.hlo.entry_computation
            return self.mc.constants.global_for(comp.name, comp[buf.value])
        keys = [location(b) for b in self.buffers]
        return self._pointers[keys.index(location(buf))]

    def sreg(self, register: str) -> ir.Value:
        """A special register (tid.x, ctaid.x, ...) widened to i64."""
        b = self.builder
        return emitted(b.zext(self.mc.threads.sreg(b, register), I64))

    def shared(self, ty: ir.Type, count: int, suffix: str) -> ir.Value:
        """A shared-memory array private to this kernel; its bytes count toward the launch."""
        from .codegen import type_bytes

        self.shared_bytes += type_bytes(ty) * count
        return self.mc.threads.shared_array(self.mc.llmod, ty, count, f"{self.fn.name}.{suffix}")

    def barrier(self) -> None:
        self.mc.threads.barrier(self.builder)

    def global_thread(self) -> tuple[ir.Value, ir.Value]:
        """(this thread's index in the grid, the number of threads in the grid), as i64."""
        b = self.builder
        first = b.add(b.mul(self.sreg("ctaid.x"), self.sreg("ntid.x")), self.sreg("tid.x"), name="thread")
        stride = b.mul(self.sreg("ntid.x"), self.sreg("nctaid.x"), name="threads")
        return emitted(first), emitted(stride)

    @contextmanager
    def strided(self, start: ir.Value, stop, step: ir.Value, name: str = "i") -> Iterator[ir.Value]:
        """for (i = start; i < stop; i += step) { <body> }; the builder ends after the loop."""
        b = self.builder
        stop = stop if isinstance(stop, ir.Value) else I64(int(stop))
        preheader = b.block
        header, body, done = (b.append_basic_block(f"{name}.{s}") for s in ("header", "body", "exit"))
        b.branch(header)
        b.position_at_end(header)
        i = b.phi(I64, name=name)
        i.add_incoming(start, preheader)
        b.cbranch(b.icmp_signed("<", i, stop), body, done)
        b.position_at_end(body)
        yield i
        # llvmlite's add takes flags; pyright sees the undecorated signature (llvm_types.emitted)
        i.add_incoming(b.add(i, step, name=f"{name}.next", flags=["nsw"]), b.block)  # pyright: ignore[reportCallIssue]
        b.branch(header)
        b.position_at_end(done)

    def grid_stride(self, n: int, name: str = "i"):
        """The grid-stride loop over [0, n): thread t handles t, t + threads, t + 2 threads..."""
        first, stride = self.global_thread()
        return self.strided(first, n, stride, name)

    def finish(self, block: tuple) -> None:
        """Close the function; `block` is the block shape it will be launched with."""
        self.mc.threads.launch_bound(self.mc.llmod, self.fn, block)
        self.builder.ret_void()
        ir.IRBuilder(self.slots).branch(self.fn.blocks[1])


def grid_for(n: int, block: int) -> int:
    """Blocks for n elements at one element per thread, capped (the loop strides past it)."""
    return min(max(0, -(-n // block)), MAX_BLOCKS)
