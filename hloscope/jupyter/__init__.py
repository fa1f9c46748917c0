"""hloscope in Jupyter: the `%%hlo` cell magic, the explorer widget and its panels.

    %load_ext hloscope                     registers %%hlo (see magic.py, docs/notebook.md)
    hloscope.explore(f, x, w)              the explorer widget for a function call
    hloscope.explore(module_or_hlo_text)   ... for an HloModule or HLO text
    hloscope.explore(exe)                  ... for a compiled executable (or its record)
    hloscope.explore(comparison)           ... for hloscope's side of hloscope.xla.compare, with a "vs XLA" tab
    hloscope.explore(autojit_fn, x)        ... for an auto-clustered call: its graph per pass, its clusters
    hloscope.explore(lz.steps())           the lazy view: steps of hloscope.lazy, their graphs, diffs

This folder is the only part of hloscope that imports IPython and ipywidgets, and `import
hloscope` never loads it. What it shows is a Compilation (hloscope.compilation), built and
run by hloscope.session, drawn by the views in hloscope.viz.
"""

from __future__ import annotations

from typing import Any

from .. import session
from .options import ExploreOptions

__all__ = ["ExploreOptions", "explore", "load_ipython_extension"]


def load_ipython_extension(ipython: Any) -> None:
    """`%load_ext hloscope`: register the %%hlo cell magic."""
    from .magic import load_ipython_extension as load  # needs IPython, which the widget alone does not

    load(ipython)


def explore(target: Any, *args: Any, run: bool = True, **options: Any) -> Any:
    """The explorer widget for `target(*args)` (a function), for an HloModule / HLO text with
    `args` as its inputs, or for a compiled executable or its record (shown as compiled,
    then run on `args`, else on seeded random inputs), or for a hloscope.xla.Comparison
    (hloscope's executable, else XLA's record, with the "vs XLA" tab). Options as for %%hlo, as keywords:
    pipeline="simplify", show="overview,stepper", opt_level=2, no_run=True,
    compare="numpy,jax", seed=0. With run=False the stages are left for `explorer.run()`."""
    from ..autocluster import AutoJitted
    from ..lazy.history import StepRecord
    from ..xla.compare import Comparison
    from .explorer import Explorer  # needs ipywidgets

    if isinstance(target, AutoJitted):  # its own view: the program graph per pass, a cluster's explorer a click away
        from .panels.autocluster import explore_autojit

        explorer_options = set(ExploreOptions.__dataclass_fields__) | {"passes", "no_run"}
        return explore_autojit(target, *args, **{k: v for k, v in options.items() if k not in explorer_options})
    if isinstance(target, StepRecord) or (isinstance(target, (list, tuple)) and all(isinstance(s, StepRecord) for s in target)):
        from .panels.lazy_steps import LazyStepsView  # hloscope.explore(lz.steps()): the lazy view

        return LazyStepsView([target] if isinstance(target, StepRecord) else target)

    comparison = target if isinstance(target, Comparison) else None
    if comparison is not None:
        target = comparison.executable or comparison.xla
    option_names = set(ExploreOptions.__dataclass_fields__) | {"passes", "no_run"}
    fn_kwargs = {k: v for k, v in options.items() if k not in option_names}
    opts = ExploreOptions.from_kwargs(**{k: v for k, v in options.items() if k in option_names})
    record = session.new(target, *args, options=opts, **fn_kwargs)
    if comparison is not None:
        record.comparison = comparison  # a fresh record of hloscope's executable: it gets the "vs XLA" tab
    if run:
        session.run(record, limit=1, strict=True)  # bad input raises here, before any widget exists
    explorer = Explorer(record, show=opts.show)
    return explorer.run() if run else explorer
