"""The exercise check of notebook 10, "hloscope vs XLA": fusion_kinds(module) counts the
ENTRY's fusions by kind. It is run on XLA's recorded modules, on hloscope's, and on a module
with a fusion outside ENTRY, so a function that counts every computation is caught."""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable

from ..ir.module import HloModule
from ..ir.parser import parse_hlo
from .exercises import Wrong, exercise, still_unanswered

# A fusion inside a called computation (as in a while body) must not be counted.
NESTED = """
HloModule nested_fusions

fused_add {
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  ROOT s = f32[4] add(a, b)
}

fused_mul {
  a = f32[4] parameter(0)
  b = f32[4] parameter(1)
  ROOT p = f32[4] multiply(a, b)
}

body {
  x = f32[4] parameter(0)
  ROOT f = f32[4] fusion(x, x), kind=kLoop, calls=fused_mul
}

ENTRY main {
  x = f32[4] parameter(0)
  c = f32[4] call(x), to_apply=body
  ROOT f = f32[4] fusion(c, x), kind=kLoop, calls=fused_add
}
"""


def entry_fusion_kinds(module: HloModule) -> dict[str, int]:
    return dict(Counter(str(i.attr("kind")) for i in module.entry_computation if i.opcode == "fusion"))


def check_fusion_kinds(fn: Callable[[HloModule], Any], modules: dict[str, HloModule]) -> None:
    """`fn(module)` must equal the ENTRY's fusion counts on every module of `modules` and on
    one with a fusion in a called computation."""
    cases = {**modules, "a module with a fusion inside a called computation": parse_hlo(NESTED)}

    def rule(f: Any) -> bool:
        if not callable(f):
            raise Wrong("fusion_kinds should be a function of a module")
        for label, module in cases.items():
            got = still_unanswered(f(module))
            if not isinstance(got, dict):
                raise Wrong(f"on {label} it returned a {type(got).__name__}, not a dict")
            want = entry_fusion_kinds(module)
            if dict(got) != want:
                if sum(got.values()) > sum(want.values()):
                    raise Wrong(f"on {label} it counts too many fusions")
                raise Wrong(f"on {label} the counts are not right")
        return True

    exercise("fusion_kinds", fn, rule,
             hint="only the ENTRY computation's instructions with opcode 'fusion', by their kind attribute")
