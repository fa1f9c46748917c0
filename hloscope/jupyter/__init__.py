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

__all__ = ["ExploreOptions", "explore", "explore_compilation", "load_ipython_extension"]


def load_ipython_extension(ipython: Any) -> None:
    """`%load_ext hloscope`: register the %%hlo cell magic."""
    from .magic import load_ipython_extension as load  # needs IPython, which the widget alone does not

    load(ipython)


def explore(target: Any, *args: Any, run: bool = True, **options: Any) -> Any:
    """The explorer widget for `target(*args)` (a function), for an HloModule / HLO text with
    `args` as its inputs, or for a compiled executable or its record (shown as compiled,
    then run on `args`, else on seeded random inputs). Options as for %%hlo, as keywords:
    pipeline="simplify", show="overview,stepper", opt_level=2, no_run=True,
    compare="numpy,jax", seed=0. With run=False the stages are left for `explorer.run()`.

    A target that has its own view says so with one method, `_hloscope_explore_(*args,
    run=..., **options)`, as IPython asks an object for `_repr_html_`: an autojit function
    (its graph per pass), lazy steps, a hloscope.xla.Comparison (its "vs XLA" tab)."""
    own_view = getattr(target, EXPLORE_PROTOCOL, None)
    if own_view is not None and not isinstance(target, type):
        return own_view(*args, run=run, **options)
    return explore_compilation(target, *args, run=run, **options)


EXPLORE_PROTOCOL = "_hloscope_explore_"


def split_options(options: dict[str, Any]) -> tuple[ExploreOptions, dict[str, Any]]:
    """(the explorer's options, the rest: keyword arguments of the function explored)."""
    names = set(ExploreOptions.__dataclass_fields__) | {"passes", "no_run"}
    explorer = ExploreOptions.from_kwargs(**{k: v for k, v in options.items() if k in names})
    return explorer, {k: v for k, v in options.items() if k not in names}


def explore_compilation(target: Any, *args: Any, run: bool = True, comparison: Any = None, **options: Any) -> Any:
    """The explorer of one compilation of `target` (see explore); with `comparison`, its "vs XLA" tab."""
    from .explorer import Explorer  # needs ipywidgets

    opts, fn_kwargs = split_options(options)
    record = session.new(target, *args, options=opts, **fn_kwargs)
    if comparison is not None:
        record.comparison = comparison  # a fresh record of hloscope's executable: it gets the "vs XLA" tab
    if run:
        session.run(record, limit=1, strict=True)  # bad input raises here, before any widget exists
    explorer = Explorer(record, show=opts.show)
    return explorer.run() if run else explorer
