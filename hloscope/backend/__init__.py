"""Backends: from an optimized, scheduled HLO module to machine code.

What every target shares lives here, once, as in XLA:

    llvm_types.py       element types -> LLVM types; loads and stores of each element type
    loops.py            counted loops with one simple induction variable (what LLVM vectorizes)
    index.py            multi-dimensional and linear indices, layouts and strides
    scalar_ops.py       the per-opcode scalar table (XLA's ElementalIrEmitter::Emit*Op)
    scalar_convert.py   convert, bitcast-convert and reduce-precision in that table
    mathlib/            vectorizable polynomial approximations of exp, log, tanh, sin, erf, pow...
    elemental.py        the elemental emitter: "the value of instruction I at index i"
                        (elemental_data.py: bounded data movement; elemental_reduce.py: loops)
    emit_context.py     what every emitter needs: builder, modules, options, constants
    buffers.py          where each value lives: a parameter, an output, a constant, the arena
    kernel_spec.py      what a kernel computes, its name, the module-wide context
    kernel_io.py        a kernel's input leaves and output stores
    reduction.py        the plan of a reduction: heroes, side outputs, loop order
    gemm.py             the matrix form of a dot
    sort_comparator.py  the comparator call and the permuted store of every sort kernel
    loop_state.py       which loop state a while body passes through unchanged
    loop_function.py    the plain loop function `void f(ptr..., i64 begin, i64 end)`
    loop_kernel.py      a loop nest around the elemental value of a root
    dispatch.py         the per-instruction dispatch: which instructions need code, which
                        cannot be lowered, which kernels (the target's KernelChoices)
    in_place.py         when a kernel may write its result over memory it reads
    plain_loops.py      kernel choices with nothing but plain loops (the target-neutral form)
    unsupported.py      "not supported on <target>: <what> (instruction <name>)", for everyone
    preparation.py      the passes every code generator needs first (layout-normalization,
                        batchnorm_expander)
    targets.py          one LLVM IR kernel as x86-64, AArch64, NVPTX or AMDGPU assembly

Each target (backend/cpu, backend/gpu) adds its own kernel choices, options, executable
and rows of the compile table; neither imports the other.
"""
