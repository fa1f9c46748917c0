"""A small vocabulary for writing math approximations with llvmlite's IRBuilder.

The approximations in approx.py, trig.py and erf.py are straight-line
code: polynomials (Horner's rule with `llvm.fmuladd`, which becomes an FMA where the CPU
has one), selects instead of branches, and bit manipulation of the float's exponent. With
no branches and no calls, LLVM's loop vectorizer turns a scalar loop over them into
<8 x float> code, which is the point: a libm call per element would stay scalar.

The same code also writes the vector forms (`<8 x float>`, ...) that a CPU kernel's
vectorized loop calls (variants.py): a MathBuilder for a vector type makes its constants
splats and names its intrinsics for that type, so an approximation reads the same for both.
"""

from __future__ import annotations

from typing import Sequence, cast

from llvmlite import ir

from ..llvm_types import F32, F64, emitted, type_of


class Splat(ir.Constant):
    """A vector constant with one value in every lane, printed `splat (float 1.5)`: one
    coefficient of a 16-lane polynomial is one short token, not sixteen."""

    def __init__(self, ty: ir.VectorType, element: ir.Constant):
        self.type = ty
        self.constant = element

    def _get_reference(self) -> str:
        return f"splat ({self.constant})"


def lanes_of(ty: ir.Type) -> int:
    """How many lanes a value of `ty` has: 0 for a scalar."""
    return ty.count if isinstance(ty, ir.VectorType) else 0


def element_of(ty: ir.Type) -> ir.Type:
    return ty.element if isinstance(ty, ir.VectorType) else ty


def type_suffix(ty: ir.Type) -> str:
    """How LLVM names `ty` in an overloaded intrinsic: f32, f64, i32, v8f32, v4i64..."""
    element = element_of(ty)
    name = "f64" if element == F64 else "f32" if element == F32 else f"i{cast(ir.IntType, element).width}"
    return f"v{ty.count}{name}" if isinstance(ty, ir.VectorType) else name


class MathBuilder:
    """IRBuilder helpers for one float type (f32 or f64, or a vector of them), plus calls to
    other approximations."""

    def __init__(self, b: ir.IRBuilder, module: ir.Module, ty: ir.Type):
        self.b = b
        self.module = module
        self.t = ty
        self.lanes = lanes_of(ty)
        self.wide = element_of(ty) == F64
        self.it = self.like(ir.IntType(64 if self.wide else 32))
        self.mantissa_bits = 52 if self.wide else 23
        self.bias = 1023 if self.wide else 127

    # -- types and constants
    def like(self, element: ir.Type) -> ir.Type:
        """`element`, or a vector of it with as many lanes as this builder's type."""
        return ir.VectorType(element, self.lanes) if self.lanes else element

    def const(self, element: ir.Type, value) -> ir.Constant:
        """`value` as an `element` constant, splat over the lanes of a vector builder."""
        scalar = ir.Constant(element, value)
        return Splat(ir.VectorType(element, self.lanes), scalar) if self.lanes else scalar

    def c(self, value: float) -> ir.Constant:
        return self.const(element_of(self.t), float(value))

    def ci(self, value: int) -> ir.Constant:
        return self.const(element_of(self.it), value)

    def intrinsic(self, name: str, *args: ir.Value) -> ir.Value:
        t = type_of(args[0])
        full = f"llvm.{name}.{type_suffix(t)}"
        fn = self.module.globals.get(full)
        if fn is None:
            fn = ir.Function(self.module, ir.FunctionType(t, [type_of(a) for a in args]), full)
        return self.b.call(fn, list(args))

    # -- arithmetic (strict IEEE: no fast-math flags, so NaN and inf handling stays exact)
    def add(self, x, y) -> ir.Instruction:
        return emitted(self.b.fadd(x, y))

    def sub(self, x, y) -> ir.Instruction:
        return emitted(self.b.fsub(x, y))

    def mul(self, x, y) -> ir.Instruction:
        return emitted(self.b.fmul(x, y))

    def div(self, x, y) -> ir.Instruction:
        return emitted(self.b.fdiv(x, y))

    def neg(self, x) -> ir.Instruction:
        return emitted(self.b.fneg(x))

    def fma(self, x, y, z):
        """x * y + z, fused where the target has an FMA instruction."""
        return self.intrinsic("fmuladd", x, y, z)

    def poly(self, x, coeffs: Sequence[float]):
        """Horner's rule; `coeffs` from the highest degree down to the constant term."""
        acc = self.c(coeffs[0])
        for k in coeffs[1:]:
            acc = self.fma(acc, x, self.c(k))
        return acc

    def abs(self, x):
        return self.intrinsic("fabs", x)

    def floor(self, x):
        return self.intrinsic("floor", x)

    def roundeven(self, x):
        return self.intrinsic("roundeven", x)

    def copysign(self, x, sign):
        return self.intrinsic("copysign", x, sign)

    def minnum(self, x, y):
        return self.intrinsic("minnum", x, y)

    def maxnum(self, x, y):
        return self.intrinsic("maxnum", x, y)

    def clamp(self, x, lo: float, hi: float):
        """min(max(x, lo), hi) by compare and select: one vmaxps/vminps each on x86, and a
        NaN passes through (minnum/maxnum would replace it and cost three instructions)."""
        x = self.select(self.lt(x, self.c(lo)), self.c(lo), x)
        return self.select(self.gt(x, self.c(hi)), self.c(hi), x)

    def sqrt(self, x):
        return self.intrinsic("sqrt", x)

    # -- comparisons and selection
    def lt(self, x, y):
        return self.b.fcmp_ordered("<", x, y)

    def le(self, x, y):
        return self.b.fcmp_ordered("<=", x, y)

    def gt(self, x, y):
        return self.b.fcmp_ordered(">", x, y)

    def eq(self, x, y):
        return self.b.fcmp_ordered("==", x, y)

    def ne(self, x, y):
        return self.b.fcmp_unordered("!=", x, y)

    def isnan(self, x):
        return self.b.fcmp_unordered("uno", x, x)

    def isinf(self, x):
        return self.eq(self.abs(x), self.c(float("inf")))

    def select(self, cond, x, y):
        return self.b.select(cond, x, y)

    def signbit(self, x):
        return self.b.icmp_signed("<", self.bits(x), self.ci(0))

    # -- bits
    def bits(self, x) -> ir.Instruction:
        return emitted(self.b.bitcast(x, self.it))

    def from_bits(self, i) -> ir.Instruction:
        return emitted(self.b.bitcast(i, self.t))

    def pow2(self, n_int):
        """2**n for an integer n in the normal exponent range, built from its bits."""
        biased = self.b.add(n_int, self.ci(self.bias))
        return self.from_bits(self.b.shl(biased, self.ci(self.mantissa_bits)))

    def ldexp(self, x, n):
        """x * 2**n for a float-valued integer n in about [-2*bias, 2*bias], in two exact steps.

        Splitting the scale in two keeps each factor a normal float, so results that
        overflow become inf and results that underflow round once into the denormals.
        """
        n_int = self.b.fptosi(n, self.it)
        half = self.b.ashr(n_int, self.ci(1))
        rest = self.b.sub(n_int, half)
        return self.mul(self.mul(x, self.pow2(half)), self.pow2(rest))

    def to_int(self, x):
        """A float to an integer of the same width, saturating (NaN -> 0), never poison."""
        name = f"llvm.fptosi.sat.{type_suffix(self.it)}.{type_suffix(self.t)}"
        fn = self.module.globals.get(name)
        if fn is None:
            fn = ir.Function(self.module, ir.FunctionType(self.it, [self.t]), name)
        return self.b.call(fn, [x])

    # -- other approximations
    def call(self, opcode: str, *args: ir.Value) -> ir.Value:
        """Call the approximation of `opcode` for this float type (defined once per module)."""
        from .approx import function_for

        return self.b.call(function_for(self.module, opcode, type_of(args[0])), list(args))

    def widen(self, x) -> ir.Instruction:
        return emitted(self.b.fpext(x, self.like(F64)))

    def narrow(self, x) -> ir.Instruction:
        return emitted(self.b.fptrunc(x, self.like(F32)))
