"""`Target`: what a back end (backend/cpu, backend/gpu) gives the compile driver.

A target is a name, its options (checked, with defaults, as a plain dict for the record),
its rows of the compile table, the passes its code generator needs before and after any
pipeline, and
how the compile cache keys its code (None: it does not cache). It never reaches into another target: the driver puts its rows after the shared
ones (hloscope.compilation.front) and runs them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from ..passes.pipeline import Pipeline
from .record import Compilation
from .stages import Stage

if TYPE_CHECKING:
    from .executable import Executable


def _no_disk(c: Compilation, key: str) -> Executable | None:
    return None


def _nothing_required() -> Pipeline | None:
    return None


def _nothing_last(options: dict[str, Any]) -> Pipeline | None:
    return None


@dataclass(frozen=True)
class Target:
    name: str
    parse_options: Callable[..., dict[str, Any]]
    stages: Callable[[Compilation], list[Stage]]
    code_stage: str  # the stage after which the target's code (assembly, PTX) exists
    cache_key_fields: Callable[[Compilation], dict[str, Any] | None] | None = None
    load_from_disk: Callable[[Compilation, str], Executable | None] = _no_disk
    # The passes its code generator needs whatever pipeline the compile names, run by the
    # optimize stage and recorded like the pipeline's: before it (CPU and GPU:
    # layout-normalization, batchnorm_expander) and after it, before memory planning (the CPU's type rewrites
    # and kernel strategy, which the compile's options decide).
    required_passes: Callable[[], Pipeline | None] = _nothing_required
    lowering_passes: Callable[[dict[str, Any]], Pipeline | None] = _nothing_last
    lowering_reads: tuple[str, ...] = ()  # the options lowering_passes depend on

    @property
    def caches(self) -> bool:
        return self.cache_key_fields is not None
