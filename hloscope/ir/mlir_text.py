"""Recognising MLIR text (StableHLO or MHLO) handed to the HLO parser.

JAX prints StableHLO by default (`jax.jit(f).lower(x).as_text()`), and so do torch_xla's and
TensorFlow's exporters. The HLO parser looks here when HLO text fails to parse (so HLO text
pays nothing), and hands MLIR text to hloscope.stablehlo, which legalizes it to HLO.
"""

from __future__ import annotations

import re


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
