"""hloscope in Jupyter: the `%%hlo` cell magic and the explorer widget.

    %load_ext hloscope                     registers %%hlo (see magic.py, docs/notebook.md)
    hloscope.explore(f, x, w)              the explorer widget for a function call
    hloscope.explore(module_or_hlo_text)   ... or for an HLO module

This folder is the only part of hloscope that imports IPython and ipywidgets, and it does
so lazily: `import hloscope` never needs them. The report object (report.py), the stage
runner (stages.py) and the HTML they produce work without either, which is what the
`hloscope report` command uses.
"""

from __future__ import annotations

from .options import ExploreOptions
from .report import HloReport

__all__ = ["ExploreOptions", "HloReport", "build_report", "explore", "load_ipython_extension"]


def load_ipython_extension(ipython) -> None:
    """`%load_ext hloscope`: register the %%hlo cell magic."""
    from .magic import load_ipython_extension as load

    load(ipython)


def build_report(target, *args, options: ExploreOptions | None = None, inputs=None, **kwargs) -> HloReport:
    """An HloReport (stages not yet run) for a function call, an HloModule or HLO text.

    For a function, `args`/`kwargs` are its arguments; for a module or text, `args` are the
    inputs (random ones, seeded, when none are given)."""
    from ..ir.module import HloModule
    from .stages import hlo_report, module_report, python_report

    options = options or ExploreOptions()
    if isinstance(target, HloModule):
        return module_report(target, list(args) or inputs, options)
    if isinstance(target, str):
        return hlo_report(target, list(args) or inputs, options)
    if callable(target):
        return python_report(target, args, kwargs, options)
    raise TypeError(f"explore: expected a function, an HloModule or HLO text, not {type(target).__name__}")


def explore(target, *args, run: bool = True, **options):
    """The explorer widget for `target(*args)` (a function), or for an HloModule / HLO text
    with `args` as its inputs. Options as for %%hlo, as keywords: pipeline="simplify",
    show="overview,stepper", opt_level=2, no_run=True, compare="numpy,jax", seed=0.
    With run=False the stages are left for `explorer.run()`."""
    from .explorer import Explorer
    from .stages import run_stages

    option_names = set(ExploreOptions.__dataclass_fields__) | {"passes", "no_run"}
    fn_kwargs = {k: v for k, v in options.items() if k not in option_names}
    opts = ExploreOptions.from_kwargs(**{k: v for k, v in options.items() if k in option_names})
    report = build_report(target, *args, options=opts, **fn_kwargs)
    if run:
        run_stages(report, limit=1)  # bad input raises here, before any widget exists
    explorer = Explorer(report)
    return explorer.run() if run else explorer

