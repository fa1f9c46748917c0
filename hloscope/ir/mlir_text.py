"""Recognising MLIR text (StableHLO or MHLO) handed to the HLO parser, so the error names it.

JAX prints StableHLO by default (`jax.jit(f).lower(x).as_text()`), and so do torch_xla's and
TensorFlow's exporters. It is a different language from HLO text, so the parser stops at its
first word. What that word means is said here, with the call that prints HLO text instead.
"""

from __future__ import annotations

import re

from ..errors import HloParseError

_PRETTY = re.compile(r"^\s*module\b")  # module @jit_f attributes {...} {
_GENERIC = re.compile(r'^\s*"(builtin\.module|func\.func)"')  # the generic form quotes op names
_FUNC = re.compile(r"^\s*func\.func\b")


def mlir_form(text: str) -> tuple[str, str, int] | None:
    """(dialect, form, line number) when `text` is MLIR; None when it is not."""
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if not stripped or stripped.startswith(("//", "#loc")):
            continue
        if _GENERIC.match(line):
            form = "generic"
        elif _PRETTY.match(line) or _FUNC.match(line):
            form = "pretty"
        else:
            return None
        dialect = "MHLO" if "mhlo." in text and "stablehlo." not in text else "StableHLO"
        return dialect, form, number
    return None


def not_hlo_text(text: str) -> HloParseError | None:
    """The error for MLIR text given where HLO text is read, or None if it is not MLIR."""
    found = mlir_form(text)
    if found is None:
        return None
    dialect, form, number = found
    line = text.splitlines()[number - 1]
    return HloParseError(
        f"this is {dialect} MLIR text ({form} form), not HLO text; hloscope reads HLO text, so far. "
        "From JAX, jax.jit(f).lower(*args).as_text(dialect='hlo') prints the same program as HLO text",
        number, len(line) - len(line.lstrip()) + 1, line)
