"""The transcendental functions as vectorizable LLVM IR, shared by every target.

    approx.py   exp, log, tanh, logistic, pow, cbrt...: one always-inlined function per
                (opcode, float type), and the accuracy table measured against numpy
    trig.py     sin, cos, tan (Cody-Waite reduction modulo pi/2) and atan2 (octants)
    payne_hanek.py  the exact reduction modulo pi/2 for huge arguments, in integers
    erf.py      erf, after fdlibm's four intervals, evaluated branch-free
    builder.py  MathBuilder: the small vocabulary they are written in (Horner, selects, bits)

The scalar table (backend/scalar_ops.py) calls `unary` and `binary` for the opcodes in
UNARY and BINARY. No libm call is ever emitted, so the same IR is valid on the CPU and
on the GPU.

(Not called `math`: for a script run from backend/, a package of that name would stand in
for Python's own math module.)
"""

from .approx import BINARY, UNARY, binary, unary

__all__ = ["BINARY", "UNARY", "binary", "unary"]
