"""What every target's executable shares at run time, whatever the target.

    signature.py      the entry's parameters and results as numpy sees them
    arguments.py      checks every argument before native code sees it
    output_pool.py    recycles the memory of large results once their arrays are gone
    compile_cache.py  the compile cache's layers: per function, in memory (a bounded LRU), on disk
    worker_pool.py    the warm child processes (LLVM, graphviz) lent one user at a time

Each target's executable, options and device code live with the target: backend/cpu
(native code in this process, AOT object files, the disk cache) and backend/gpu (the CUDA
driver, the host program of launches and copies).
"""
