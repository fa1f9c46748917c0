"""The CPU backend: LLVM IR for every kernel and one entry function, JIT-compiled by llvmlite.

Every kernel is a plain loop function (backend/loop_function.py) built from the shared
pieces of backend/; what is the CPU's own:

    kernel_choices.py which kernel for which root (what the shared dispatch asks)
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
    row_chains.py     consecutive kernels over the same rows run a block of rows at a time
    rows/             runs of row-wise instructions (softmax, layer norm) as programs of the
                      row interpreter, compiled once per process with the library
    library/          the kernels compiled once per process: reductions, depthwise
                      convolution, the row interpreter
    same_kernels.py   a repeated computation (same code key) calls the first kernel's code
    thread_pool.py    the process's persistent worker threads (native code)
    entry.py          the entry function: the schedule, one call per kernel, over one arena
    control_flow.py   while and conditional: condition, body and branches as called programs
    jit.py            LLVM optimization, assembly, object code, loading
    aot.py            an object file and a C header for linking elsewhere
    disk_cache.py     compiled objects kept on disk between processes
    options.py        the target's options;  target.py  its rows of the compile table
    executable.py     CpuExecutable: the compiled program you call like a function
"""
