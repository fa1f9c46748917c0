"""The GPU backend: PTX for NVIDIA GPUs from LLVM's NVPTX target, no CUDA toolkit needed.

    nvptx.py          thread indices, barriers, warp shuffles, shared memory, kernel marking
    kernel.py         a kernel's LLVM function, its launch configuration, grid-stride loops
    loop_kernel.py    elementwise and kLoop fusions: one element per thread (also the generic
                      reduction fallback: one output element per thread)
    reduce_kernel.py  row reductions: a block per row, warp shuffles, shared memory
    warp.py           any value as 32-bit words, to shuffle it or stage it in shared memory
    dot_kernel.py     dot: 16x16 shared-memory tiles, batch in blockIdx.z
    lowering.py       HLO module -> LLVM module + kernel table (schedule order)
    codegen.py        LLVM optimization and PTX emission for an sm_XX
    ptxas.py          NVIDIA's assembler as a verdict and a per-kernel resource reading
    neutral.py        one kernel in target-neutral form (a plain loop function)
    targets.py        that function as x86-64, AArch64, NVPTX and AMDGPU assembly
    compiler.py       compile_gpu: the stages, the report, the GpuExecutable

The elemental emitter (backend/elemental.py), the scalar table and the polynomial
transcendentals (backend/mathlib/) are shared with the CPU, unchanged: they use no libm, so
the same IR is valid on the GPU. Buffers (backend/buffers.py) and the memory plan are
shared too.
"""
