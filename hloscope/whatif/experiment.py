"""`whatif(x, **changes)`: compile again with a pass, a rule or a heuristic changed, and compare.

    w = hloscope.whatif(exe, disable=["fusion"])              # exe: an executable or its record
    w = hloscope.whatif(exe, disable_rules=["add_zero"])
    w = hloscope.whatif(exe, opt_level=0)                     # reruns no pass: they are reused

The changed compile starts from the first stage the change affects (rerun.py); both sides
are measured (metrics.py) and the experiment is kept in the original record, so its HTML
page shows it.
"""

from __future__ import annotations

from typing import Any

from ..compilation.executable import Executable
from ..compilation.record import Compilation
from .changes import Changes, WhatIfError
from .comparison import WhatIf
from .metrics import inputs_for, measure, runnable, time_both
from .rerun import rerun


def original_of(x: Any) -> tuple[Compilation, Any]:
    """The record to start from and its executable (None for a record of the passes alone)."""
    if isinstance(x, Executable):
        return x.report, x
    if isinstance(x, WhatIf):
        return x.changed, x.executables[1]
    if isinstance(x, Compilation):
        return x, x.executable or x.made()
    raise TypeError(f"whatif: expected a compiled executable or its Compilation record, not {type(x).__name__}")


def whatif(x: Any, *, run: bool = True, repeats: int = 7, title: str = "", **changes: Any) -> WhatIf:
    """Compile `x` again with `changes` (see hloscope.whatif.changes.Changes) and compare.
    run=False skips the measured run (the cost model's estimate is still there)."""
    original, exe = original_of(x)
    ch = Changes.of(**changes)
    if not ch:
        raise WhatIfError("whatif: no change given; e.g. disable=['fusion'], disable_rules=['add_zero'], opt_level=0")
    if original.module is None or original.table == []:
        raise WhatIfError("whatif: this record was not compiled by hloscope (or its front stages did not run)")
    changed = rerun(original, ch, title)
    reused = tuple(s.name for s in changed.stages if s.status == "reused")
    new_exe = changed.executable
    seconds: tuple[float | None, float | None] = (None, None)
    why = "run=False" if not run else runnable(exe) or runnable(new_exe)
    if not why and exe is not None and new_exe is not None:
        args = inputs_for(original)
        seconds = time_both(lambda: exe(*args), lambda: new_exe(*args), repeats)
    w = WhatIf(original, changed, ch, measure(original, seconds[0], why), measure(changed, seconds[1], why), reused,
               executables=(exe, new_exe))
    original.experiments.append(w.kept())
    return w
