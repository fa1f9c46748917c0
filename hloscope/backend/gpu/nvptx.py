"""NVPTX specifics: thread indices, barriers, warp shuffles, shared memory, kernel marking.

Every GPU-only construct the kernels use goes through a `ThreadModel`, so the kernel
emitters never spell an intrinsic themselves. `Nvptx` is the real one:

    thread and block indices   llvm.nvvm.read.ptx.sreg.{tid,ctaid,ntid,nctaid}.{x,y,z}
                               (PTX's %tid.x, %ctaid.x, %ntid.x, %nctaid.x)
    __syncthreads()            llvm.nvvm.barrier0 (LLVM 21+ upgrades it on parsing to
                               llvm.nvvm.barrier.cta.sync.aligned.all(0); PTX `bar.sync 0`)
    warp shuffle               llvm.nvvm.shfl.sync.bfly.i32 (PTX `shfl.sync.bfly.b32`)
    shared memory              a module-level global in addrspace(3) (PTX `.shared`)
    kernels                    the `ptx_kernel` calling convention (LLVM 20+; older LLVMs
                               read the `!nvvm.annotations` "kernel" metadata instead, which
                               LLVM 20+ upgrades to the calling convention when it parses)
    launch bounds              `!nvvm.annotations` "maxntidx/y/z" (PTX `.maxntid`; LLVM 21+
                               upgrades them to the "nvvm.maxntid" function attribute)
    global memory              kernel pointers are generic; one addrspacecast to
                               addrspace(1) and back tells LLVM they point to global memory,
                               so loads and stores become ld.global / st.global

A different ThreadModel (the tests' CPU emulator) turns the same kernels into plain
functions that run one OS thread per GPU thread.
"""

from __future__ import annotations

from llvmlite import ir

from ..llvm_types import I32, PTR, VOID, emitted

TRIPLE = "nvptx64-nvidia-cuda"
GLOBAL, SHARED = 1, 3  # NVPTX address spaces (0 generic, 4 constant, 5 local)
WARP = 32


def llvm_major() -> int:
    import llvmlite.binding as llvm

    return llvm.llvm_version_info[0]


class Nvptx:
    """The thread model of a real NVIDIA GPU."""

    name = "nvptx"
    triple = TRIPLE

    def sreg(self, b: ir.IRBuilder, register: str) -> ir.Value:
        """A special register as i32: "tid.x", "ctaid.y", "ntid.x", "nctaid.z", ..."""
        name = f"llvm.nvvm.read.ptx.sreg.{register}"
        fn = b.module.globals.get(name) or ir.Function(b.module, ir.FunctionType(I32, []), name)
        return b.call(fn, [], name=register.replace(".", "_"))

    def barrier(self, b: ir.IRBuilder) -> None:
        """__syncthreads(): every thread of the block waits here until all have arrived."""
        name = "llvm.nvvm.barrier0"
        fn = b.module.globals.get(name) or ir.Function(b.module, ir.FunctionType(VOID, []), name)
        b.call(fn, [])

    def shuffle_xor(self, b: ir.IRBuilder, word: ir.Value, lane_mask: int) -> ir.Value:
        """The i32 `word` of the lane whose number is this lane's XOR lane_mask (full warp)."""
        name = "llvm.nvvm.shfl.sync.bfly.i32"
        fn = b.module.globals.get(name) or ir.Function(b.module, ir.FunctionType(I32, [I32, I32, I32, I32]), name)
        # membermask: all 32 lanes take part; c = 0x1f: the whole warp is one segment.
        return b.call(fn, [I32(-1), word, I32(lane_mask), I32(0x1F)])

    def shared_array(self, llmod: ir.Module, ty: ir.Type, count: int, name: str) -> ir.Value:
        """A block-wide array of `count` elements in shared memory (one per kernel)."""
        g = ir.GlobalVariable(llmod, ir.ArrayType(ty, count), name=name, addrspace=SHARED)
        g.linkage = "internal"
        # llvmlite's __init__ sets both to None, which pyright takes for their declared types
        g.initializer = ir.Constant(ir.ArrayType(ty, count), ir.Undefined)  # pyright: ignore[reportAttributeAccessIssue]
        g.align = 16  # pyright: ignore[reportAttributeAccessIssue]
        # llvmlite types a global as a typed pointer; an opaque `ptr addrspace(3)` lets the
        # builder GEP, load and store through it like any other pointer.
        g.type = ir.PointerType(addrspace=SHARED)
        return g

    def mark_kernel(self, llmod: ir.Module, fn: ir.Function) -> None:
        """Make `fn` a kernel entry point (`.entry` in PTX) rather than a device function."""
        if llvm_major() >= 20:
            fn.calling_convention = "ptx_kernel"
            return
        node = llmod.add_metadata([fn, ir.MetaDataString(llmod, "kernel"), I32(1)])
        llmod.add_named_metadata("nvvm.annotations", node)

    def launch_bound(self, llmod: ir.Module, fn: ir.Function, block: tuple) -> None:
        """Promise ptxas the kernel never runs with more threads per block than `block`
        (PTX `.maxntid`), so it never uses more registers than such a block can hold."""
        for axis, size in zip("xyz", block):
            node = llmod.add_metadata([fn, ir.MetaDataString(llmod, f"maxntid{axis}"), I32(size)])
            llmod.add_named_metadata("nvvm.annotations", node)

    def global_pointer(self, b: ir.IRBuilder, ptr: ir.Argument) -> ir.Value:
        """`ptr` (a kernel argument) declared to point to global memory, still generic."""
        glob = b.addrspacecast(ptr, ir.PointerType(addrspace=GLOBAL), name=f"{ptr.name}.global")
        return emitted(b.addrspacecast(glob, PTR, name=f"{ptr.name}.g"))
