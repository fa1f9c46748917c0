"""CHLO operations that HLO has no opcode for, written out in HLO as XLA's own expansions do.

JAX emits `chlo.erf_inv` for `jax.scipy.special.erfinv`, and so for every `jax.random.normal`.
XLA expands it (xla/hlo/builder/lib/math.cc, ErfInv) into Giles' single-precision polynomial
approximation: with w = -log(1 - x^2), a degree-8 polynomial in w - 2.5 where w < 5, and in
sqrt(w) - 3 beyond, times x; at |x| = 1 the answer is x * inf.
"""

from __future__ import annotations

from .syntax import TensorType

# Giles, "Approximating the erfinv function" (GPU Computing Gems, 2011), single precision,
# highest power first: the coefficients XLA uses.
_W_BELOW_5 = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503,
              -0.00417768164, 0.246640727, 1.50140941)
_W_FROM_5 = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613,
             0.00943887047, 1.00167406, 2.83297682)


def erf_inv(lz, comp, op, args, scope):
    from .legalize import _tensor  # the rules' helpers (legalize imports this module)

    kind = _tensor(op)
    if kind.element == "f64":
        raise lz._error(op, "chlo.erf_inv on f64 is not supported (hloscope writes XLA's f32 expansion only)")
    f32 = TensorType("f32", kind.dims)
    pred = TensorType("pred", kind.dims)

    def emit(opcode, *operands, shape=f32, attrs=()):
        return lz._emit(comp, opcode, shape, list(operands), list(attrs), op)

    def const(value):
        scalar = lz._emit(comp, "constant", TensorType("f32", ()), [], op=op, literal=repr(float(value)))
        return emit("broadcast", scalar, attrs=["dimensions={}"])

    x = args[0] if kind.element == "f32" else emit("convert", args[0])
    w = emit("negate", emit("log-plus-one", emit("negate", emit("multiply", x, x))))
    below = emit("compare", w, const(5.0), shape=pred, attrs=["direction=LT"])
    w = emit("select", below, emit("subtract", w, const(2.5)), emit("subtract", emit("sqrt", w), const(3.0)))
    p = None
    for low, high in zip(_W_BELOW_5, _W_FROM_5):
        c = emit("select", below, const(low), const(high))
        p = c if p is None else emit("add", c, emit("multiply", p, w))
    result = emit("multiply", p, x)
    at_one = emit("compare", emit("abs", x), const(1.0), shape=pred, attrs=["direction=EQ"])
    result = emit("select", at_one, emit("multiply", x, const(float("inf"))), result)
    return [result if kind.element == "f32" else emit("convert", result, shape=kind)]
