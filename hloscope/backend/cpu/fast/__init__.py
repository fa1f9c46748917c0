"""What the CPU backend has only for speed: a reader of the compiler can skip this folder.

Without any of it the compiler is complete: every kernel is a loop nest LLVM compiles
(`library=False` runs that form; `hloscope.plain_loops(exe)` and the explorer show it for
any compile). Each piece here makes a program compile or run faster, as XLA:CPU's own
machinery does (YNNPACK fusions, Eigen's pool, parallel codegen), and
docs/performance.md keeps the measurements that justify it:

    library/        kernels compiled once per machine (reductions, convolutions, the row
                    interpreter) and kept in the user's cache folder: a lookup, not an LLVM run
    rows/           runs of row-wise instructions (softmax, layer norm) as programs of the
                    row interpreter
    row_chains.py   consecutive kernels over the same rows, a block of rows at a time
    thread_pool.py  the process's worker threads, spinning briefly between jobs
    llvm_split.py   a large LLVM module cut along its kernels, each part on its own core

Where one of them is used is decided in the open: the kernel-strategy pass records each
choice with its reason (backend/cpu/strategy.py, kernel_strategy.py).
"""
