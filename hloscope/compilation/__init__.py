"""The compilation record and the driver that fills it (docs/architecture.md).

    Compilation     the record of one compilation: every stage's result, time and log (record.py)
    StageRecord     one stage as it went (pending, running, done, failed, skipped, cached, reused)
    Kernel, Launch  a kernel as the record shows it, and how a GPU kernel is launched
    Stage           one row of the compile table; run_stages runs a table (stages.py)
    Target          what a back end gives the driver: its options, rows and cache key (target.py)
    Executable      what a compilation for a target makes, called like a function (executable.py)
    Source          what a compilation starts from: HloText, StableHloText, GivenModule, TracedCall

    from hloscope.compilation import Compilation
"""

# record.py first: every other module here imports it.
from .record import Compilation, Kernel, Launch, StageRecord
from .stages import Stage, run_stages
from .target import Target
from .executable import Executable
from .sources import GivenModule, HloText, Source, StableHloText, TracedCall

__all__ = [
    "Compilation", "Executable", "GivenModule", "HloText", "Kernel", "Launch", "Source", "StableHloText", "Stage", "StageRecord",
    "Target", "TracedCall", "run_stages",
]
