"""StableHLO (and MHLO) MLIR text in: read it, and legalize it to HLO.

    legalized = hloscope.stablehlo.read(text)   # a Legalized: .module, .hlo_text, .links, .mlir
    hloscope.parse_hlo(text)                    # HLO text, or MLIR text legalized on the way

JAX prints StableHLO by default (`jax.jit(f).lower(*args).as_text()`), as do torch_xla's and
TensorFlow's exporters. The reader (reader.py) takes the pretty and the generic form; the
legalization (legalize.py) is hloscope's own, a pass that writes HLO text, instruction by
instruction, keeping where each came from.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from ..errors import HloParseError
from ..ir.mlir_text import mlir_form
from ..ir.parser import parse_hlo as parse_hlo_text
from ..ir.module import HloModule
from .legalize import Legalized, LegalizationError, Link, legalize
from .reader import read_mlir


@dataclass
class Reading:
    """A legalization's whole record: what was read, what it became, and how long each took."""

    legalized: Legalized
    module: HloModule
    read_seconds: float
    legalize_seconds: float
    parse_seconds: float

    @property
    def dialect(self) -> str:
        return self.legalized.mlir.dialect

    @property
    def form(self) -> str:
        return self.legalized.mlir.form

    @property
    def mlir_text(self) -> str:
        return self.legalized.mlir.text

    @property
    def hlo_text(self) -> str:
        return self.legalized.hlo_text

    @property
    def links(self) -> list[Link]:
        return self.legalized.links

    def summary(self) -> str:
        return (f"{self.dialect} MLIR ({self.form} form): {self.legalized.mlir.operation_count()} operations "
                f"in {len(self.legalized.mlir.functions)} functions -> {self.module.instruction_count()} HLO "
                f"instructions")


def parse_hlo(text: str | bytes, **options) -> HloModule:
    """A module from HLO text, or from StableHLO / MHLO MLIR text (legalized to HLO on the way).
    Options are hloscope.ir.parse_hlo's; errors carry line, column and caret in the text given."""
    try:
        return parse_hlo_text(text, **options)
    except HloParseError:
        if isinstance(text, bytes) or mlir_form(text) is None:
            raise
    return read(text).module


def is_mlir(text: str) -> bool:
    return mlir_form(text) is not None


def read(text: str) -> Reading:
    """Read StableHLO or MHLO MLIR text and legalize it to an HloModule. Raises HloParseError
    (line, column, caret in the MLIR text) for what cannot be read or legalized."""
    found = mlir_form(text)
    dialect, form = (found[0], found[1]) if found else ("StableHLO", "pretty")
    t0 = time.perf_counter()
    mlir = read_mlir(text, dialect, form)
    t1 = time.perf_counter()
    legalized = legalize(mlir)
    t2 = time.perf_counter()
    try:
        module = parse_hlo_text(legalized.hlo_text)
    except Exception as e:  # a legalization bug: say so, with the HLO line it wrote
        raise LegalizationError(f"hloscope's StableHLO legalization wrote HLO it cannot read back: {e}",
                                1, 1, text.splitlines()[0] if text else "") from e
    t3 = time.perf_counter()
    return Reading(legalized, module, t1 - t0, t2 - t1, t3 - t2)


__all__ = ["Legalized", "LegalizationError", "Link", "Reading", "is_mlir", "parse_hlo", "read"]
