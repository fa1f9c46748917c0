"""`result_accuracy`: how exact a transcendental op's result must be (XLA's ResultAccuracy),

    exponential(p), result_accuracy={mode=highest}
    exponential(p), result_accuracy={tolerance={atol=1e-05,rtol=0,ulps=2}}

Either a mode (`default`, `highest`; XLA reads it in any case) or a tolerance whose fields
are atol, rtol and ulps, none negative (XLA aborts on a negative one; hloscope refuses it).
Only the unary transcendental ops take it. hloscope computes every op as exactly as numpy
does, so the attribute is checked and printed back as written, and changes nothing else.
"""

from __future__ import annotations

from .attributes import Raw
from .scanner import NUMBER, Scanner

RESULT_ACCURACY_OPS = frozenset(
    "exponential exponential-minus-one log log-plus-one sine cosine tan tanh sqrt rsqrt cbrt logistic erf".split())
MODES = ("default", "highest")
TOLERANCE_FIELDS = ("atol", "rtol", "ulps")


def parse_result_accuracy(s: Scanner) -> Raw:
    """`{mode=...}` or `{tolerance={...}}` (the key and `=` already read), kept as written."""
    s.skip()
    start = s.pos
    s.expect("{")
    s.skip()
    key_pos = s.pos
    if s.keyword("mode"):
        s.expect("=")
        s.skip()
        pos = s.pos
        mode = s.name("an accuracy mode")
        if mode.lower() not in MODES:
            s.fail(f"result_accuracy mode {mode!r} is not one of {', '.join(MODES)}", pos)
    elif s.keyword("tolerance"):
        s.expect("=")
        _tolerance(s)
    else:
        s.fail(f"result_accuracy takes mode= or tolerance=, found {s.describe_here()}", key_pos)
    s.expect("}", "'}' to end result_accuracy (it holds one of mode= or tolerance=)")
    return Raw(s.text[start:s.pos])


def _tolerance(s: Scanner) -> None:
    s.expect("{")
    first = True
    while not s.accept("}"):
        if not first:
            s.expect(",", "',' or '}' in the tolerance")
        first = False
        s.skip()
        pos = s.pos
        field = next((f for f in TOLERANCE_FIELDS if s.keyword(f)), None)
        if field is None:
            s.fail(f"tolerance fields are {', '.join(TOLERANCE_FIELDS)}, found {s.describe_here()}", pos)
        s.expect("=")
        s.skip()
        pos = s.pos
        m = s.match(NUMBER)
        if not m:
            s.fail(f"tolerance {field} must be a number, found {s.describe_here()}", pos)
        if float(m.group()) < 0:
            s.fail(f"tolerance {field} must not be negative, got {m.group()}", pos)
