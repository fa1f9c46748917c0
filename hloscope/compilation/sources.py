"""What a compilation starts from, and the first stage that turns it into an HloModule.

    HloText(text)                       parsed (stage "parse")
    StableHloText(text)                 StableHLO or MHLO MLIR text, read and legalized to HLO
                                        (stage "legalize StableHLO to HLO"); text_source() picks
    GivenModule(module)                 taken as it is (stage "parse", nothing to do)
    TracedCall(fn, args, kwargs, trace) a Python call traced to HLO (stage "trace");
                                        `trace()` is the front end's (hloscope.frontend)

A source may carry inputs for the run (a traced call always does: its arguments). The
first stage raises on bad input (a parse error, a shape error in the user's code): there
is nothing to show without a module.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Protocol

import numpy as np

from ..ir import parse_hlo
from ..ir.mlir_text import mlir_form
from ..ir.module import HloModule

if TYPE_CHECKING:
    from .record import Compilation


class Source(Protocol):
    """Something a compilation can start from."""

    kind: str  # "hlo", "module" or "python"
    first_stage: str  # the name of the stage that loads it

    def load(self, c: Compilation) -> str:
        """Set c.input_module (and c.listing, c.inputs where it has them); return a note."""
        ...


@dataclass
class HloText:
    """HLO text in XLA's syntax."""

    text: str
    inputs: list | None = None
    kind: str = "hlo"
    first_stage: str = "parse"

    def load(self, c: Compilation) -> str:
        c.input_module = parse_hlo(self.text)
        c.inputs = self.inputs
        return f"{self.text.count(chr(10)) + 1} lines" + ("" if self.inputs is None else f", {len(self.inputs)} inputs given")


@dataclass
class StableHloText:
    """StableHLO (or MHLO) MLIR text, as JAX, torch_xla and TensorFlow print it. The stage
    keeps the whole reading (c.legalization): the MLIR, the HLO it became, and the link from
    each HLO instruction to its MLIR operation and source line."""

    text: str
    inputs: list | None = None
    kind: str = "stablehlo"
    first_stage: str = "legalize StableHLO to HLO"

    def load(self, c: Compilation) -> str:
        from ..stablehlo import read

        reading = read(self.text)
        c.input_module, c.legalization, c.inputs = reading.module, reading, self.inputs
        return reading.summary() + ("" if self.inputs is None else f", {len(self.inputs)} inputs given")


def text_source(text: str, inputs: list | None = None) -> HloText | StableHloText:
    """The source for a program's text: HLO text, or MLIR text (StableHLO, MHLO)."""
    return StableHloText(text, inputs) if mlir_form(text) is not None else HloText(text, inputs)


@dataclass
class GivenModule:
    """An HloModule object (made by the builder, the tracer, or parsed earlier)."""

    module: HloModule
    inputs: list | None = None
    kind: str = "module"
    first_stage: str = "parse"

    def load(self, c: Compilation) -> str:
        c.input_module = self.module
        c.inputs = self.inputs
        return "given as an HloModule"


@dataclass
class TracedCall:
    """`function(*args, **kwargs)` traced to HLO. `trace()` returns (module, listing, the
    flat numpy arguments in the module's parameter order)."""

    function: Callable
    args: tuple
    kwargs: dict
    trace: Callable[[], tuple[HloModule, Any, list[np.ndarray]]] = field(repr=False)
    kind: str = "python"
    first_stage: str = "trace"

    def load(self, c: Compilation) -> str:
        c.input_module, listing, c.inputs = self.trace()
        c.listing = listing
        return f"{len(listing.lines()) - 2} numpy-level operations"
