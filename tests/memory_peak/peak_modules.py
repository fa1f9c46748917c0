"""Hand-written modules whose peak, and the change that lowers it, are known."""

THREE_TEMPORARIES = """HloModule three, is_scheduled=true

ENTRY main {
  p = f32[1024]{0} parameter(0)
  a = f32[1024]{0} exponential(p)
  b = f32[1024]{0} log(p)
  c = f32[1024]{0} negate(p)
  ab = f32[1024]{0} add(a, b)
  ROOT abc = f32[1024]{0} multiply(ab, c)
}
"""

# w is read only by nw (elementwise, in place) and nw lives to the end through the peak:
# donating w to output {0} takes nw out of the arena
DONATE = """HloModule donate, is_scheduled=true

ENTRY main {
  w = f32[4096]{0} parameter(0)
  g = f32[4096]{0} parameter(1)
  nw = f32[4096]{0} subtract(w, g)
  e = f32[4096]{0} exponential(g)
  f = f32[4096]{0} log(g)
  h = f32[4096]{0} add(e, f)
  ROOT t = (f32[4096]{0}, f32[4096]{0}) tuple(nw, h)
}
"""

# bc (a broadcast of a scalar parameter) is read at once and again at the very end: it waits
# through the peak, where two other big values are live
REMATERIALIZE = """HloModule remat, is_scheduled=true

ENTRY main {
  p = f32[] parameter(0)
  x = f32[4096]{0} parameter(1)
  bc = f32[4096]{0} broadcast(p), dimensions={}
  y = f32[4096]{0} add(x, bc)
  big1 = f32[4096]{0} exponential(y)
  big2 = f32[4096]{0} log(x)
  z = f32[4096]{0} multiply(big1, big2)
  ROOT r = f32[4096]{0} add(z, bc)
}
"""

# written (and marked scheduled) in the order that keeps a and b alive together
REORDER = """HloModule order, is_scheduled=true

add {
  l = f32[] parameter(0)
  r = f32[] parameter(1)
  ROOT s = f32[] add(l, r)
}

ENTRY main {
  p = f32[4096]{0} parameter(0)
  zero = f32[] constant(0)
  a = f32[4096]{0} exponential(p)
  b = f32[4096]{0} log(p)
  ra = f32[] reduce(a, zero), dimensions={0}, to_apply=add
  rb = f32[] reduce(b, zero), dimensions={0}, to_apply=add
  ROOT s = f32[] add(ra, rb)
}
"""
