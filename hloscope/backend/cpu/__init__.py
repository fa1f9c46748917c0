"""The CPU backend: LLVM IR for every kernel and one entry function, JIT-compiled by llvmlite.

Every kernel is a plain loop function (backend/loop_function.py) built from the shared
pieces of backend/; what is the CPU's own:

    type_passes.py    the type rewrites (complex, sub-byte ints, f8/f4), passes before planning
    strategy.py       which kind of kernel computes each instruction, and why
    kernel_strategy.py  ... as a recorded pass before planning (lowering_passes.py)
    kernel_choices.py which kernel for which root (what the shared dispatch asks)
    lesson.py         the plain loops a compile stands for (hloscope.plain_loops)
    lowering.py       HLO module -> LLVM module: program functions, kernels and partitions
    reduce_kernel.py  reductions (row and column), with multi-output siblings
    split_reduce.py   full reductions cut into chunks, so they use every core
    dot_kernel.py     dot: a BLAS call (as XLA calls Eigen) or a tiled loop nest
    widening_dot.py   f16/bf16 dot: operands widened to f32 scratch, the f32 BLAS gemm, rounded
    scan_kernel.py    cumulative reduce-windows (cumsum, cummax, ...): one scan per row
    sort_kernel.py    sort: a stable merge sort of each row's permutation
    scatter_kernel.py scatter: the operand copied, then every update combined in order
    blas.py           sgemm/dgemm from numpy's (else scipy's) OpenBLAS, registered as JIT symbols
    parallel.py       how many partitions a kernel gets, and the calls that run them
    same_kernels.py   a repeated computation (same code key) calls the first kernel's code
    fast/             speed only, skippable by a reader of the compiler (fast/__init__.py):
                      the precompiled library, row programs, row chains, the spinning
                      thread pool, LLVM module splitting
    entry.py          the entry function: the schedule, one call per kernel, over one arena
    control_flow.py   while and conditional: condition, body and branches as called programs
    jit.py            LLVM optimization, assembly, object code, loading
    aot.py            an object file and a C header for linking elsewhere
    disk_cache.py     compiled objects kept on disk between processes
    options.py        the target's options;  target.py  its rows of the compile table
    executable.py     CpuExecutable: the compiled program you call like a function
"""
