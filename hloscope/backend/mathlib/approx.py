"""Vectorizable approximations of the transcendental functions, as XLA's CPU backend has.

A call to libm's `expf` inside a loop keeps the loop scalar. XLA's CPU backend instead
emits polynomial approximations (xla/service/cpu/polynomial_approximations.cc, now
xla/codegen/intrinsic/) that LLVM vectorizes like any other arithmetic. hloscope does the
same: each function below becomes one internal, always-inlined LLVM function
(`@hloscope.exp.f32`, ...) made of multiplies, FMAs, selects and exponent bit tricks.

Accuracy: the worst error seen over ten million random inputs per function and type
(benchmarks/math_accuracy.py, the ranges of tests/backend/test_math_accuracy.py: wide ones,
with denormals, huge values, +-inf and NaN), compiled for x86-64 without FMA, with AVX2 and
with AVX-512; the columns are the worst of them. Without FMA a polynomial rounds each product
before it adds it: only f32 tanh comes out worse (6.7 ulp against 4.7). "ulp" is the spacing
of the result's type; numpy's own f64 error is part of the f64 column.

    function   f32 max error           f64 max error                 method
    exp        1 ulp                   2 ulp                         Cody-Waite reduction + Cephes polynomial
    log        0.8 ulp                 1 ulp                         frexp + Cephes polynomial / rational
    log1p      2.3 ulp                 2 ulp                         Kahan: log(u) * x / (u - 1)
    expm1      1.4 ulp                 2 ulp                         2^n expm1(r) + (2^n - 1), Taylor on |r| < ln2/2
    logistic   2.3 ulp                 3 ulp                         e/(1+e) or 1/(1+e), e = exp(-|x|)
    tanh       4.7 ulp (6.7 no FMA)    2 ulp                         f32: XLA's rational; f64: rational near 0,
                                                                     else 1 - 2/(exp(2|x|)+1)
    pow        0.5 ulp (via f64)       2 + 2|y ln x| ulp             exp(y log|x|) + C99 special cases
    cbrt       0.5 ulp (via f64)       3 ulp                         exp(log|x| / 3) + one Newton step
    sin, cos   2.4 ulp                 2 ulp                         Cody-Waite by pi/2 (Payne-Hanek beyond
                                                                     16384 / 524288) + Cephes polynomials
    tan        4.4 ulp                 4 ulp                         sin / cos of the same reduction
    atan2      2 ulp                   2 ulp                         octant reduction + Taylor on |t| < tan(pi/16)
    erf        0.5 ulp (via f64)       3 ulp                         fdlibm's rational approximations, branch-free

f64 pow loses accuracy for huge |y ln x| (1e-13 relative at results near 1e300): log(x) is
not carried in extra precision. sin/cos/tan hold their bounds for every finite argument,
up to 3.4e38 (f32) and 1.8e308 (f64): past Cody-Waite's range the reduction is an exact
integer one (payne_hanek.py, tests/backend/test_trig_large_arguments.py); a CPU flat loop
computes it only when some argument needs it (backend/huge_trig_loop.py). Results are not correctly rounded;
the corpus tolerance (rtol 1e-5 for f32) is far looser than any of these.

The polynomial coefficients are the published ones of Cephes (S. Moshier) and fdlibm (Sun).
"""

from __future__ import annotations

from functools import partial

from llvmlite import ir

from ..llvm_types import type_of
from .builder import MathBuilder, type_suffix
from .trig import beyond_cody_waite
from .variants import no_side_effects, outlined_call

UNARY = (
    "exponential", "exponential-minus-one", "log", "log-plus-one", "logistic", "tanh",
    "cbrt", "sine", "cosine", "tan", "erf",
)
BINARY = ("power", "atan2")
# sin/cos/tan without the reduction for huge arguments: a loop that checks for those first
# (backend/huge_trig_loop.py) runs these and the exact ones only where needed.
CODY_WAITE_ONLY = {op: f"{op}.cody-waite" for op in ("sine", "cosine", "tan")}

LN2_HI = {False: 0.693359375, True: 0.693145751953125}  # few bits: n * LN2_HI is exact
LN2_LO = {False: -2.12194440e-4, True: 1.42860682030941723212e-6}
LOG2E = 1.4426950408889634


def unary(ctx, opcode: str, x: ir.Value) -> ir.Value:
    """Call the approximation of `opcode` on register value x (f32 or f64).

    A context with a `huge_trig` list gets sin/cos/tan without the Payne-Hanek reduction,
    and the list gets the flag saying where that is wrong (trig.py, cody_waite_call)."""
    flags = getattr(ctx, "huge_trig", None)
    if flags is not None and opcode in CODY_WAITE_ONLY:
        flags.append(beyond_cody_waite(MathBuilder(ctx.b, ctx.module, type_of(x)), x))
        opcode = CODY_WAITE_ONLY[opcode]
    return _call(ctx, opcode, [x])


def binary(ctx, opcode: str, x: ir.Value, y: ir.Value) -> ir.Value:
    return _call(ctx, opcode, [x, y])


# Uses of one approximation in a module that are inlined; later ones call its vector forms.
# Inlined, each use costs LLVM its optimization (a long chain's hundreds of tanh and sin);
# outlined, the module pays once for three vector widths of the function, which is more than
# one inlined use costs (cpu_bench's expsin, exp and sin once each: 35 ms of compile inlined,
# 69 ms outlined). The long chain compiles in the same time either way (1.8-1.9x XLA's).
INLINED_USES = 4


def _call(ctx, opcode: str, args: list[ir.Value]) -> ir.Value:
    """A use of the approximation: inlined (where the function is always-inline), or on the
    CPU past its first INLINED_USES in the module, a call LLVM's vectorizer turns into its
    vector form's (variants.py)."""
    fn = function_for(ctx.module, opcode, type_of(args[0]))
    if ctx.target == "cpu":
        uses = _uses(ctx.module)
        uses[fn.name] = uses.get(fn.name, 0) + 1
        if uses[fn.name] > INLINED_USES:
            return outlined_call(ctx.b, ctx.module, opcode, args)
    return ctx.b.call(fn, args)


def _uses(module: ir.Module) -> dict[str, int]:
    """How many times each approximation was used in `module` so far."""
    counts = getattr(module, "_hloscope_math_uses", None)
    if counts is None:
        counts = {}
        module._hloscope_math_uses = counts  # pyright: ignore[reportAttributeAccessIssue]
    return counts


def function_for(module: ir.Module, opcode: str, ty: ir.Type) -> ir.Function:
    """`@hloscope.<opcode>.<f32|f64|v8f32|...>`, defined in `module` on first use (internal,
    always inline where a call does not say otherwise)."""
    name = f"hloscope.{opcode}.{type_suffix(ty)}"
    fn = module.globals.get(name)
    if fn is not None:
        return fn
    impl = IMPLEMENTATIONS[opcode]
    arity = 2 if opcode in BINARY else 1
    fn = ir.Function(module, ir.FunctionType(ty, [ty] * arity), name)
    fn.linkage = "internal"
    fn.attributes.add("alwaysinline")
    no_side_effects(fn)
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    b.ret(impl(MathBuilder(b, module, ty), *fn.args))
    return fn


def in_f64(m: MathBuilder, opcode: str, *args):
    """Compute an f32 function with the f64 approximation and round once (pow, cbrt, erf)."""
    return m.narrow(m.call(opcode, *[m.widen(a) for a in args]))


# ---------------------------------------------------------------- exp
EXP_F32 = [1.9875691500e-4, 1.3981999507e-3, 8.3334519073e-3, 4.1665795894e-2, 1.6666665459e-1, 5.0000001201e-1]
EXP_P_F64 = [1.26177193074810590878e-4, 3.02994407707441961300e-2, 9.99999999999999999910e-1]
EXP_Q_F64 = [3.00198505138664455042e-6, 2.52448340349684104192e-3, 2.27265548208155028766e-1, 2.00000000000000000009e0]


def reduce_ln2(m: MathBuilder, x):
    """(n, r) with x = n*ln2 + r, |r| <= ln2/2; n*ln2 is subtracted in two exact parts."""
    n = m.floor(m.fma(x, m.c(LOG2E), m.c(0.5)))
    r = m.fma(n, m.c(-LN2_HI[m.wide]), x)
    return n, m.fma(n, m.c(-LN2_LO[m.wide]), r)


def exp_reduced(m: MathBuilder, r):
    """exp(r) for |r| <= ln2/2."""
    if not m.wide:
        return m.add(m.fma(m.poly(r, EXP_F32), m.mul(r, r), r), m.c(1.0))
    r2 = m.mul(r, r)
    p = m.mul(r, m.poly(r2, EXP_P_F64))
    q = m.poly(r2, EXP_Q_F64)
    return m.fma(m.c(2.0), m.div(p, m.sub(q, p)), m.c(1.0))


def exp(m: MathBuilder, x):
    """exp(x) = 2^n * exp(r). The clamp keeps n in range; overflow and underflow then fall
    out of the two-step ldexp (inf, denormals, 0)."""
    lo, hi = (-746.0, 710.0) if m.wide else (-104.0, 89.0)
    xc = m.minnum(m.maxnum(x, m.c(lo)), m.c(hi))
    n, r = reduce_ln2(m, xc)
    y = m.ldexp(exp_reduced(m, r), n)
    return m.select(m.isnan(x), x, y)


def expm1(m: MathBuilder, x):
    """exp(x) - 1 without cancellation: 2^n * p + (2^n - 1) with p = expm1(r) by Taylor."""
    degree = 13 if m.wide else 7
    lo, hi = (-40.0, 710.0) if m.wide else (-18.0, 89.0)
    xc = m.minnum(m.maxnum(x, m.c(lo)), m.c(hi))
    n = m.roundeven(m.mul(xc, m.c(LOG2E)))
    r = m.fma(n, m.c(-LN2_LO[m.wide]), m.fma(n, m.c(-LN2_HI[m.wide]), xc))
    coeffs = [1.0 / _factorial(k) for k in range(degree + 1, 1, -1)]
    p = m.fma(m.mul(m.poly(r, coeffs), r), r, r)  # r + r^2/2! + ... exactly formed around r
    small_n = m.minnum(n, m.c(m.mantissa_bits))
    s = m.pow2(m.to_int(small_n))
    exact_form = m.fma(s, p, m.sub(s, m.c(1.0)))
    big_form = m.sub(m.ldexp(m.add(p, m.c(1.0)), n), m.c(1.0))
    y = m.select(m.gt(n, m.c(m.mantissa_bits)), big_form, exact_form)
    y = m.select(m.eq(x, m.c(0.0)), x, y)  # keeps the sign of -0
    return m.select(m.isnan(x), x, y)


def _factorial(k: int) -> int:
    out = 1
    for i in range(2, k + 1):
        out *= i
    return out


# ---------------------------------------------------------------- log
LOG_F32 = [
    7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1, 1.4249322787e-1,
    -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1, 3.3333331174e-1,
]
LOG_P_F64 = [
    1.01875663804580931796e-4, 4.97494994976747001425e-1, 4.70579119878881725854e0,
    1.44989225341610930846e1, 1.79368678507819816313e1, 7.70838733755885391666e0,
]
LOG_Q_F64 = [
    1.0, 1.12873587189167450590e1, 4.52279145837532221105e1, 8.29875266912776603211e1,
    7.11544750618563894466e1, 2.31251620126765340583e1,
]


def frexp(m: MathBuilder, x):
    """(mantissa in [0.5, 1), exponent as a float) of a positive finite x, denormals included."""
    smallest_normal = 2.0 ** (1 - m.bias)
    scale_bits = m.mantissa_bits + 2
    tiny = m.lt(x, m.c(smallest_normal))
    xs = m.select(tiny, m.mul(x, m.c(2.0**scale_bits)), x)
    bits = m.bits(xs)
    exponent_field = m.b.lshr(bits, m.ci(m.mantissa_bits))
    e = m.b.sitofp(m.b.sub(exponent_field, m.ci(m.bias - 1)), m.t)
    e = m.sub(e, m.select(tiny, m.c(scale_bits), m.c(0.0)))
    mantissa_mask = (1 << m.mantissa_bits) - 1
    half_exponent = (m.bias - 1) << m.mantissa_bits
    mant = m.from_bits(m.b.or_(m.b.and_(bits, m.ci(mantissa_mask)), m.ci(half_exponent)))
    return mant, e


def log(m: MathBuilder, x):
    """log(x) = e*ln2 + log(1+f), f in [sqrt(1/2)-1, sqrt(2)-1)."""
    mant, e = frexp(m, x)
    below = m.lt(mant, m.c(0.70710678118654752440))
    e = m.sub(e, m.select(below, m.c(1.0), m.c(0.0)))
    f = m.sub(m.select(below, m.add(mant, mant), mant), m.c(1.0))
    z = m.mul(f, f)
    if m.wide:
        y = m.mul(m.mul(f, z), m.div(m.poly(f, LOG_P_F64), m.poly(f, LOG_Q_F64)))
    else:
        y = m.mul(m.mul(m.poly(f, LOG_F32), f), z)
    y = m.fma(e, m.c(-2.121944400546905827679e-4), y)
    y = m.fma(z, m.c(-0.5), y)
    y = m.fma(e, m.c(0.693359375), m.add(f, y))
    y = m.select(m.eq(x, m.c(float("inf"))), x, y)
    y = m.select(m.eq(x, m.c(0.0)), m.c(float("-inf")), y)
    return m.select(m.b.fcmp_unordered("<", x, m.c(0.0)), m.c(float("nan")), y)


def log1p(m: MathBuilder, x):
    """log(1+x) by Kahan's trick: log(u) * (x / (u-1)) with u = 1+x rounded."""
    u = m.add(x, m.c(1.0))
    d = m.sub(u, m.c(1.0))
    y = m.mul(m.call("log", u), m.div(x, d))
    y = m.select(m.eq(d, m.c(0.0)), x, y)
    return m.select(m.eq(u, m.c(float("inf"))), u, y)


# ---------------------------------------------------------------- logistic, tanh
def logistic(m: MathBuilder, x):
    """1 / (1 + e^-x), computed as e^x / (1 + e^x) for x < 0 so e^-|x| never overflows
    (which would flush results below 2^-126 to 0 instead of keeping the denormals)."""
    e = m.call("exponential", m.neg(m.abs(x)))
    r = m.div(m.c(1.0), m.add(m.c(1.0), e))
    return m.select(m.lt(x, m.c(0.0)), m.mul(e, r), r)


TANH_F32 = [-5.70498872745e-3, 2.06390887954e-2, -5.37397155531e-2, 1.33314422036e-1, -3.33332819422e-1]
TANH_P_F64 = [-9.64399179425052238628e-1, -9.92877231001918586564e1, -1.61468768441708447952e3]
TANH_Q_F64 = [1.0, 1.12811678491632931402e2, 2.23548839060100448583e3, 4.84406305325125486048e3]


TANH_P_F32 = [-2.76076847742355e-16, 2.00018790482477e-13, -8.60467152213735e-11, 5.12229709037114e-08,
              1.48572235717979e-05, 6.37261928875436e-04, 4.89352455891786e-03]
TANH_Q_F32 = [1.19825839466702e-06, 1.18534705686654e-04, 2.26843463243900e-03, 4.89352518554385e-03]


def tanh(m: MathBuilder, x):
    """f32: XLA's rational approximation x P(x^2) / Q(x^2) on x clamped to +-7.9053 (where
    it reaches 1), and x itself below 0.0004. f64: an odd rational for |x| < 0.625, else
    1 - 2/(exp(2|x|) + 1)."""
    if not m.wide:
        xc = m.clamp(x, -7.90531110763549805, 7.90531110763549805)  # NaN stays NaN
        z = m.mul(xc, xc)
        y = m.div(m.mul(xc, m.poly(z, TANH_P_F32)), m.poly(z, TANH_Q_F32))
        y = m.select(m.lt(m.abs(x), m.c(0.0004)), x, y)
        return m.select(m.gt(m.abs(x), m.c(9.0)), m.copysign(m.c(1.0), x), y)  # tanh rounds to 1
    z = m.mul(x, x)
    if m.wide:
        ratio = m.div(m.poly(z, TANH_P_F64), m.poly(z, TANH_Q_F64))
    else:
        ratio = m.poly(z, TANH_F32)
    small = m.fma(m.mul(x, z), ratio, x)
    a = m.abs(x)
    e = m.call("exponential", m.add(a, a))
    large = m.copysign(m.sub(m.c(1.0), m.div(m.c(2.0), m.add(e, m.c(1.0)))), x)
    return m.select(m.lt(a, m.c(0.625)), small, large)


# ---------------------------------------------------------------- pow, cbrt
def power(m: MathBuilder, x, y):
    """C99 pow: exp(y * log|x|) with the sign and special cases of the standard."""
    if not m.wide:
        return in_f64(m, "power", x, y)
    r = m.call("exponential", m.mul(y, m.call("log", m.abs(x))))
    y_int = m.eq(m.floor(y), y)
    half = m.mul(y, m.c(0.5))
    y_odd = m.b.and_(m.b.and_(y_int, m.lt(m.abs(y), m.c(2.0**53))), m.ne(m.floor(half), half))
    r = m.select(m.b.and_(m.signbit(x), y_odd), m.neg(r), r)
    finite_negative = m.b.and_(m.lt(x, m.c(0.0)), m.gt(x, m.c(float("-inf"))))
    r = m.select(m.b.and_(finite_negative, m.b.not_(y_int)), m.c(float("nan")), r)
    unit = m.b.or_(m.eq(x, m.c(1.0)), m.b.and_(m.eq(m.abs(x), m.c(1.0)), m.isinf(y)))
    return m.select(m.b.or_(m.eq(y, m.c(0.0)), unit), m.c(1.0), r)


def cbrt(m: MathBuilder, x):
    """exp(log|x| / 3) refined by one Newton step, with x's sign; 0, inf and NaN pass through."""
    if not m.wide:
        return in_f64(m, "cbrt", x)
    a = m.abs(x)
    tiny = m.lt(a, m.c(2.0**-1022))  # denormals: scale by 2^54 so Newton's cube stays exact
    a = m.select(tiny, m.mul(a, m.c(2.0**54)), a)
    r = m.call("exponential", m.mul(m.call("log", a), m.c(1.0 / 3.0)))
    r2 = m.mul(r, r)
    r = m.sub(r, m.div(m.fma(r2, r, m.neg(a)), m.mul(m.c(3.0), r2)))
    r = m.select(tiny, m.mul(r, m.c(2.0**-18)), r)
    keep = m.b.or_(m.eq(a, m.c(0.0)), m.b.or_(m.isinf(a), m.isnan(a)))
    return m.select(keep, x, m.copysign(r, x))


def _late_imports():
    from . import erf, trig

    return {
        "sine": trig.sine,
        "cosine": trig.cosine,
        "tan": trig.tan,
        **{fast: partial(getattr(trig, name), exact=False) for name, fast in (
            ("sine", CODY_WAITE_ONLY["sine"]), ("cosine", CODY_WAITE_ONLY["cosine"]), ("tan", CODY_WAITE_ONLY["tan"]))},
        "atan2": trig.atan2,
        "erf": erf.erf,
    }


IMPLEMENTATIONS = {
    "exponential": exp,
    "exponential-minus-one": expm1,
    "log": log,
    "log-plus-one": log1p,
    "logistic": logistic,
    "tanh": tanh,
    "power": power,
    "cbrt": cbrt,
    **_late_imports(),
}
