"""Backends: from an optimized, scheduled HLO module to machine code.

The pieces shared by every target live here, as in XLA:

    llvm_types.py   element types -> LLVM types; loads and stores of each element type
    loops.py        counted loops with one simple induction variable (what LLVM vectorizes)
    index.py        multi-dimensional and linear indices, layouts and strides
    scalar_ops.py   the per-opcode scalar table (XLA's ElementalIrEmitter::Emit*Op)
    math_approx.py  vectorizable polynomial approximations of exp, log, tanh, sin, erf, pow...
    elemental.py    the elemental emitter: "the value of instruction I at index i"

The CPU backend (`backend/cpu`) builds kernels and an entry function from these.
"""
