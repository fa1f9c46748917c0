"""`hloscope.cost_by_line(x, *args)`: the per-source-line table of a compile, its time
measured per kernel when the program is given arguments to run on.

    table = hloscope.cost_by_line(exe)            # an executable, a record or a module: estimated time
    table = hloscope.cost_by_line(exe, x, w)      # each kernel run on (x, w) and timed (exe.profile);
                                                  # pytrees of arrays are flattened as compile did
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ..cost.source_lines import SourceLines, top_level_of
from ..cost.source_lines import cost_by_line as _table
from ..frontend.pytree import flatten
from ..ir.module import HloModule
from .record import Compilation


def cost_by_line(target: Any, *args: Any, repeat: int = 20) -> SourceLines:
    """See the module docstring. A record read from XLA's dumps works too (its module's
    metadata names the lines); measuring needs an executable with `profile` (CPU, GPU)."""
    module, record, exe = _parts(target)
    measured = kernel_seconds(exe, record, tuple(flatten(args)[0]), repeat) if args else None
    return _table(module, measured)


def kernel_seconds(exe: Any, record: Compilation | None, args: tuple, repeat: int = 20) -> dict[str, float]:
    """{top-level instruction: seconds per run} from the executable's kernel profile."""
    profile = getattr(exe, "profile", None)
    if profile is None or record is None:
        raise TypeError("measuring kernel time needs a compiled executable (hloscope.compile(...)) "
                        "whose target can profile its kernels")
    instruction_of: dict[str, str] = {k.name: k.instruction or k.name for k in record.kernels}
    top = top_level_of(record.module) if record.module is not None else {}
    seconds: dict[str, float] = defaultdict(float)
    for kernel, ms in profile(*args, repeat=repeat):
        name = instruction_of.get(str(kernel), str(kernel))
        seconds[top.get(name, name)] += ms / 1e3
    return dict(seconds)


def _parts(target: Any) -> tuple[HloModule, Compilation | None, Any]:
    if isinstance(target, HloModule):
        return target, None, None
    record = target if isinstance(target, Compilation) else getattr(target, "report", None)
    if not isinstance(record, Compilation) or record.module is None:
        raise TypeError(f"cost_by_line takes an executable, a compile record or an HloModule, "
                        f"not a {type(target).__name__}")
    exe = record.executable if isinstance(target, Compilation) else target
    return record.module, record, exe
