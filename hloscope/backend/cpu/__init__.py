"""The CPU backend: LLVM IR for every kernel and one entry function, JIT-compiled by llvmlite.

    buffers.py        where each value lives: a parameter, an output, a constant, or the arena
    kernel.py         a kernel's LLVM function: pointer arguments with noalias/align attributes
    loop_kernel.py    loop fusions and unfused elementwise / data-movement ops
    reduce_kernel.py  reductions (row and column), with multi-output siblings
    split_reduce.py   full reductions cut into chunks, so they use every core
    dot_kernel.py     dot: a BLAS call (as XLA calls Eigen) or a tiled loop nest
    blas.py           sgemm_/dgemm_ from scipy, registered as JIT symbols
    parallel.py       how many partitions a kernel gets, and the calls that run them
    thread_pool.py    the process's persistent worker threads (native code)
    entry.py          the entry function: the schedule, one call per kernel, over one arena
    control_flow.py   while and conditional: condition, body and branches as called programs
    lowering.py       HLO module -> LLVM module + kernel table
    jit.py            LLVM optimization, assembly, object code, loading
"""
