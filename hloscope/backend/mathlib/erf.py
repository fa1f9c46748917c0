"""erf, after fdlibm's s_erf.c, with its four intervals evaluated branch-free (see approx.py).

    |x| < 0.84375         x + x * P(x^2)/Q(x^2)
    0.84375 <= |x| < 1.25 erx + P(s)/Q(s), s = |x| - 1
    1.25 <= |x| < 6       1 - exp(-z*z - 0.5625) * exp((z-|x|)(z+|x|) + R(t)/S(t)) / |x|,
                          t = 1/x^2, z = |x| with its low 32 bits cleared (so z*z is exact);
                          R/S has one coefficient set below 1/0.35 and another above
    |x| >= 6              1 (erfc(6) < 2^-53)

Every lane computes every interval and a select picks one. f32 inputs are computed in f64.
"""

from __future__ import annotations

from .approx import in_f64
from .builder import MathBuilder

ERX = 8.45062911510467529297e-01
PP = [-2.37630166566501626084e-05, -5.77027029648944159157e-03, -2.84817495755985104766e-02,
      -3.25042107247001499370e-01, 1.28379167095512558561e-01]
QQ = [-3.96022827877536812320e-06, 1.32494738004321644526e-04, 5.08130628187576562776e-03,
      6.50222499887672944485e-02, 3.97917223959155352819e-01, 1.0]
PA = [-2.16637559486879084300e-03, 3.54783043256182359371e-02, -1.10894694282396677476e-01,
      3.18346619901161753674e-01, -3.72207876035701323847e-01, 4.14856118683748331666e-01,
      -2.36211856075265944077e-03]
QA = [1.19844998467991074170e-02, 1.36370839120290507362e-02, 1.26171219808761642112e-01,
      7.18286544141962662868e-02, 5.40397917702171048937e-01, 1.06420880400844228286e-01, 1.0]
RA = [-9.81432934416914548592e00, -8.12874355063065934246e01, -1.84605092906711035994e02,
      -1.62396669462573470355e02, -6.23753324503260060396e01, -1.05586262253232909814e01,
      -6.93858572707181764372e-01, -9.86494403484714822705e-03]
SA = [-6.04244152148580987438e-02, 6.57024977031928170135e00, 1.08635005541779435134e02,
      4.29008140027567833386e02, 6.45387271733267880336e02, 4.34565877475229228821e02,
      1.37657754143519042600e02, 1.96512716674392571292e01, 1.0]
RB = [0.0, -4.83519191608651397019e02, -1.02509513161107724954e03, -6.37566443368389627722e02,
      -1.60636384855821916062e02, -1.77579549177547519889e01, -7.99283237680523006574e-01,
      -9.86494292470009928597e-03]
SB = [0.0, -2.24409524465858183362e01, 4.74528541206955367215e02, 2.55305040643316442583e03,
      3.19985821950859553908e03, 1.53672958608443695994e03, 3.25792512996573918826e02,
      3.03380607434824582924e01, 1.0]


def _poly_select(m: MathBuilder, cond, x, when_true, when_false):
    """Horner's rule whose coefficients are chosen per lane (both lists the same length)."""
    acc = m.select(cond, m.c(when_true[0]), m.c(when_false[0]))
    for a, b in zip(when_true[1:], when_false[1:]):
        acc = m.fma(acc, x, m.select(cond, m.c(a), m.c(b)))
    return acc


def _tail(m: MathBuilder, a):
    """1 - erf(a) for 1.25 <= a < 6 (a = |x|)."""
    t = m.div(m.c(1.0), m.mul(a, a))
    near = m.lt(a, m.c(1.0 / 0.35))
    r = _poly_select(m, near, t, RA, RB)
    s = _poly_select(m, near, t, SA, SB)
    z = m.from_bits(m.b.and_(m.bits(a), m.ci(-(1 << 32))))
    e1 = m.call("exponential", m.sub(m.neg(m.mul(z, z)), m.c(0.5625)))
    e2 = m.call("exponential", m.fma(m.sub(z, a), m.add(z, a), m.div(r, s)))
    return m.div(m.mul(e1, e2), a)


def erf(m: MathBuilder, x):
    if not m.wide:
        return in_f64(m, "erf", x)
    a = m.abs(x)
    z = m.mul(x, x)
    near_zero = m.fma(x, m.div(m.poly(z, PP), m.poly(z, QQ)), x)
    s = m.sub(a, m.c(1.0))
    near_one = m.add(m.c(ERX), m.div(m.poly(s, PA), m.poly(s, QA)))
    clamped = m.minnum(m.maxnum(a, m.c(1.25)), m.c(6.0))
    tail = m.sub(m.c(1.0), _tail(m, clamped))
    v = m.select(m.lt(a, m.c(6.0)), tail, m.c(1.0))
    v = m.select(m.lt(a, m.c(1.25)), near_one, v)
    v = m.copysign(v, x)
    v = m.select(m.lt(a, m.c(0.84375)), near_zero, v)
    return m.select(m.isnan(x), x, v)
