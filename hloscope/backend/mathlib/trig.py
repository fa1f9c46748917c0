"""sin, cos and tan by reduction modulo pi/2, and atan2 by octant reduction (see approx.py).

sin/cos/tan: y = round(|x| * 2/pi); r = |x| - y*pi/2, with pi/2 split into parts whose
products with y are exact (Cody-Waite), accurate for |x| <= CODY_WAITE_LIMIT; beyond it,
(r, y mod 4) come from the exact integer reduction of payne_hanek.py, selected per lane.
Then a Cephes polynomial for sin(r) or cos(r) on |r| <= pi/4, chosen and signed by the
quadrant y mod 4. All lanes compute both polynomials and select, so there is no branch to
stop vectorization. Accurate (a few ulp) for every finite x; inf and NaN give NaN.

The exact reduction costs about a third of a loop like exp(-x*x)*2 + sin(x) - 1 on every
lane, so a CPU flat loop calls the exact=False versions (Cody-Waite only) and recomputes
with the exact ones only when an argument was beyond the limit (backend/huge_trig_loop.py).

atan2: a = min(|x|,|y|) / max(|x|,|y|) in [0, 1]; atan(a) = k*pi/8 + atan(t) with
t = (a - tan(k*pi/8)) / (1 + a*tan(k*pi/8)) and |t| <= tan(pi/16), where the Taylor series
converges fast; then the octant and the signs of x and y place the angle.
"""

from __future__ import annotations

from math import pi

from llvmlite import ir

from .builder import MathBuilder
from .payne_hanek import reduce_huge

# pi/2 in parts. f32: four parts with few mantissa bits (exact products without FMA), good
# to about |x| < 25000. f64: fdlibm's three 33-bit parts and the tail (without the tail, floats
# next to multiples of pi/2 lose up to 70 ulp), good to about |x| < 1e6. Beyond
# CODY_WAITE_LIMIT (by float width: f32, f64) payne_hanek.py reduces exactly.
CODY_WAITE_LIMIT = {False: 16384.0, True: 524288.0}
PIO2_F32 = (1.5703125, 4.83989715576171875e-4, -1.62865035235881805419921875e-7,
            -5.5644315544167710640977020375430583953857421875e-11)
PIO2_F64 = (1.57079632673412561417e00, 6.07710050630396597660e-11, 2.02226624871116645580e-21,
            8.47842766036889956997e-32)

SIN_F32 = [-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1]
COS_F32 = [2.443315711809948e-5, -1.388731625493765e-3, 4.166664568298827e-2]
SIN_F64 = [
    1.58962301576546568060e-10, -2.50507477628578072866e-8, 2.75573136213857245213e-6,
    -1.98412698295895385996e-4, 8.33333333332211858878e-3, -1.66666666666666307295e-1,
]
COS_F64 = [
    -1.13585365213876817300e-11, 2.08757008419747316778e-9, -2.75573141792967388112e-7,
    2.48015872888517045348e-5, -1.38888888888730564116e-3, 4.16666666666665929218e-2,
]


def beyond_cody_waite(m: MathBuilder, x):
    """True (i1) where Cody-Waite alone is not accurate for x (also for inf: harmless)."""
    return m.gt(m.abs(x), m.c(CODY_WAITE_LIMIT[m.wide]))


def _reduce(m: MathBuilder, x, exact: bool):
    """(r, quadrant) with |x| = quadrant*pi/2 + r (quadrant taken mod 4, as an integer); with
    exact=False only Cody-Waite, for a loop that checks beyond_cody_waite itself."""
    a = m.abs(x)
    y = m.roundeven(m.mul(a, m.c(2.0 / pi)))
    r = a
    for part in PIO2_F64 if m.wide else PIO2_F32:
        r = m.fma(y, m.c(-part), r)
    q = m.to_int(m.sub(y, m.mul(m.c(4.0), m.floor(m.mul(y, m.c(0.25))))))
    if not exact:
        return r, q
    # Beyond Cody-Waite's range, the exact integer reduction; inf (and NaN) keep the NaN above.
    huge = m.b.and_(m.gt(a, m.c(CODY_WAITE_LIMIT[m.wide])), m.b.not_(m.isinf(a)))
    r_huge, q_huge = reduce_huge(m, a)
    return m.select(huge, r_huge, r), m.select(huge, q_huge, q)


def _polys(m: MathBuilder, r):
    """(sin r, cos r) for |r| <= pi/4."""
    z = m.mul(r, r)
    s = m.fma(m.mul(r, z), m.poly(z, SIN_F64 if m.wide else SIN_F32), r)
    c = m.fma(m.mul(z, z), m.poly(z, COS_F64 if m.wide else COS_F32), m.fma(z, m.c(-0.5), m.c(1.0)))
    return s, c


def _quadrant_bits(m: MathBuilder, q):
    """(q is odd, q >= 2) as i1 values, for q in 0..3."""
    odd = m.b.trunc(q, m.like(ir.IntType(1)))
    upper = m.b.icmp_signed(">=", q, m.ci(2))
    return odd, upper


def sine(m: MathBuilder, x, exact: bool = True):
    """sin|x| is s, c, -s, -c in quadrants 0..3; sin x carries x's sign."""
    r, q = _reduce(m, x, exact)
    s, c = _polys(m, r)
    odd, upper = _quadrant_bits(m, q)
    v = m.select(odd, c, s)
    v = m.select(upper, m.neg(v), v)
    return m.select(m.signbit(x), m.neg(v), v)


def cosine(m: MathBuilder, x, exact: bool = True):
    """cos|x| is c, -s, -c, s in quadrants 0..3 (cos is even)."""
    r, q = _reduce(m, x, exact)
    s, c = _polys(m, r)
    odd, upper = _quadrant_bits(m, q)
    v = m.select(odd, s, c)
    return m.select(m.b.xor(odd, upper), m.neg(v), v)


def tan(m: MathBuilder, x, exact: bool = True):
    """tan|x| is s/c in even quadrants and -c/s in odd ones; tan is odd."""
    r, q = _reduce(m, x, exact)
    s, c = _polys(m, r)
    odd, _ = _quadrant_bits(m, q)
    v = m.select(odd, m.neg(m.div(c, s)), m.div(s, c))
    return m.select(m.signbit(x), m.neg(v), v)


TAN_PI_16 = 0.19891236737965800691
TAN_3PI_16 = 0.66817863791929891999
TAN_PI_8 = 0.41421356237309504880


def atan2(m: MathBuilder, y, x):
    """atan2(y, x) with IEEE special cases (signed zeros, infinities, NaN)."""
    ax, ay = m.abs(x), m.abs(y)
    y_bigger = m.gt(ay, ax)
    big, small = m.select(y_bigger, ay, ax), m.select(y_bigger, ax, ay)
    a = m.div(small, big)
    a = m.select(m.eq(big, m.c(0.0)), m.c(0.0), a)
    a = m.select(m.b.and_(m.isinf(big), m.isinf(small)), m.c(1.0), a)
    mid, high = m.le(m.c(TAN_PI_16), a), m.le(m.c(TAN_3PI_16), a)
    c = m.select(high, m.c(1.0), m.select(mid, m.c(TAN_PI_8), m.c(0.0)))
    base = m.select(high, m.c(pi / 4), m.select(mid, m.c(pi / 8), m.c(0.0)))
    t = m.div(m.sub(a, c), m.fma(a, c, m.c(1.0)))
    terms = 11 if m.wide else 5
    coeffs = [(-1.0) ** k / (2 * k + 1) for k in range(terms - 1, 0, -1)]
    t2 = m.mul(t, t)
    angle = m.add(base, m.fma(m.mul(t, t2), m.poly(t2, coeffs), t))
    angle = m.select(y_bigger, m.sub(m.c(pi / 2), angle), angle)
    angle = m.select(m.signbit(x), m.sub(m.c(pi), angle), angle)
    angle = m.copysign(angle, y)
    return m.select(m.b.or_(m.isnan(x), m.isnan(y)), m.add(x, y), angle)
