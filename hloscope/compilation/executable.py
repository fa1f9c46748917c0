"""`Executable`: what a compilation for a target makes, called like a function.

Every target's executable (backend/cpu, backend/gpu) is one of these: it checks its
arguments against `signature` before any native code sees them, and `report` is the
record of how it was compiled. The report never points back at the executable, so
dropping the executable frees its machine code at once.
"""

from __future__ import annotations

import html
import weakref
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

from ..ir.module import HloModule
from ..runtime.signature import Signature

if TYPE_CHECKING:
    from .record import Compilation


class Executable(ABC):
    """A compiled program: `exe(*arrays)` runs it; `exe.report` says how it was made."""

    signature: Signature
    _report: Compilation
    module: HloModule | None  # the input module (what save_aot and explore start from)
    options: dict[str, Any]

    @property
    def report(self) -> Compilation:
        return self._report

    @report.setter
    def report(self, report: Compilation) -> None:
        self._report = report
        report.made = weakref.ref(self)  # weak: the report must not keep the machine code alive

    @abstractmethod
    def __call__(self, *args: Any) -> Any:
        """Run on numpy arrays; returns an array, or a tuple for a tuple-shaped result."""

    @abstractmethod
    def with_report(self, report: Compilation) -> Executable:
        """The same machine code under another report (a compile served from the cache)."""

    def __repr__(self) -> str:
        params = ", ".join(p.describe() for p in self.signature.params)
        results = ", ".join(r.describe() for r in self.signature.results)
        return f"<hloscope {type(self).__name__} ({params}) -> ({results}), {len(self.report.kernels)} kernels>"

    def _repr_html_(self) -> str:
        return "<pre>" + html.escape(self.report.summary()) + "</pre>"
