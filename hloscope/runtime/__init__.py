"""Running compiled programs.

    options.py      the options of hloscope.compile
    signature.py    the entry's parameters and results as numpy sees them
    arguments.py    checks every argument before native code sees it
    executable.py   `Executable`: call it like a function; `.report` tells how it was made
    output_pool.py  recycles the memory of large results once their arrays are gone
    report.py       `CompileReport`: every stage's time and artifact (HLO, LLVM IR, assembly)
    cache.py        compile once per process (memory) and optionally across processes (disk)
    aot.py          `save_aot`: an object file and a C header, like tfcompile
"""
