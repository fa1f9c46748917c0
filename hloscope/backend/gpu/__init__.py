"""The GPU backend: PTX for NVIDIA GPUs from LLVM's NVPTX target, no CUDA toolkit needed.

    nvptx.py          thread indices, barriers, warp shuffles, shared memory, kernel marking
    kernel.py         a kernel's LLVM function, its launch configuration, grid-stride loops
    loop_kernel.py    elementwise and kLoop fusions: one element per thread (also the generic
                      reduction fallback: one output element per thread)
    reduce_kernel.py  row reductions: a block per row, warp shuffles, shared memory
    warp.py           any value as 32-bit words, to shuffle it or stage it in shared memory
    dot_kernel.py     dot: 16x16 shared-memory tiles, batch in blockIdx.z
    kernel_choices.py which kernel for which root (what the shared dispatch asks)
    column_reduce.py  column reductions: a thread per column, long columns split in chunks
    row_combine.py    a row reduction's accumulators and how threads combine them
    sort_kernel.py    sort: a bitonic network per row in shared memory
    control_flow.py   while and conditional: host-side steps (program.py)
    lowering.py       HLO module -> LLVM module + kernel table + host program (schedule order)
    codegen.py        LLVM optimization and PTX emission for an sm_XX
    ptxas.py          NVIDIA's assembler as a verdict and a per-kernel resource reading
    neutral.py        one kernel in target-neutral form (backend/plain_loops.py)
    targets.py        that function as x86-64, AArch64, NVPTX and AMDGPU assembly
    program.py        the host program: launches, device copies, loops and branches
    options.py        the target's options;  target.py  its rows of the compile table
    executable.py     GpuExecutable: the device arena and the program run on it
    cuda.py           the CUDA driver (through cuda-python), when there is a GPU

The elemental emitter (backend/elemental.py), the scalar table and the polynomial
transcendentals (backend/mathlib/) are shared with the CPU, unchanged: they use no libm, so
the same IR is valid on the GPU. Buffers (backend/buffers.py) and the memory plan are
shared too.
"""
