"""The explorer's lazy view: the timeline, a step's graph and compilation, the diff."""

from __future__ import annotations

import subprocess
import sys

import pytest

import hloscope
import hloscope.lazy as lz
from hloscope.viz.lazy_steps import graph_diff_html, step_graph_html, steps_timeline_html

from mlp_loops import data, lazy_loop


def _batch_change_run(print_loss: bool = False):
    params, x, y = data(batch=32)
    _, x16, y16 = data(batch=16, seed=1)
    lazy_loop(params, [(x, y)] * 2 + [(x16, y16)] * 2, print_loss=print_loss)
    return lz.steps()


def test_the_timeline_shows_compiles_hits_and_syncs(capsys):
    steps = _batch_change_run(print_loss=True)
    page = steps_timeline_html(steps)
    assert page.count("badge rejected'>compiled") == 2 and page.count("'>cache hit") == 2
    assert page.count("implicit sync: str() or print() at mlp_loops.py:") == 4
    assert "4 steps: 2 compiled, 2 cache hits, 4 implicit syncs" in page
    graph = step_graph_html(steps[0])
    assert "matmul" in graph and "grad" in graph and "mlp_loops.py:" in graph


def test_the_diff_names_the_shape_that_changed():
    steps = _batch_change_run()
    page = graph_diff_html(lz.diff_steps(steps[0], steps[2]))
    assert "Why step 2 missed the cache" in page
    assert "shape f32[32,8] -&gt; f32[16,8]" in page


def test_explore_of_the_steps_is_the_lazy_view():
    pytest.importorskip("ipywidgets")
    from hloscope.jupyter.explorer import Explorer
    from hloscope.jupyter.panels.lazy_steps import LazyStepsView

    steps = _batch_change_run()
    view = hloscope.explore(lz.steps())
    try:
        assert isinstance(view, LazyStepsView)
        assert (view.before.value, view.after.value) == (0, 2)  # the two steps that compiled
        assert "f32[32,8] -&gt; f32[16,8]" in view.diff.value
        view.pick.value = 3
        assert "step 3: cache hit" in view.graph.value
        explorer = view.open_compilation()  # one click away: the full explorer of its compilation
        assert isinstance(explorer, Explorer) and explorer.report.module is not None
        assert steps[3].compilation is steps[2].compilation  # a hit shares the compile it reused
    finally:
        view.close()


def test_hloscope_lazy_imports_without_ipython():
    code = "import sys, hloscope.lazy; print('IPython' in sys.modules, 'ipywidgets' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["False", "False"]


def test_a_slice_of_the_steps_and_one_step_explore_as_the_lazy_view():
    pytest.importorskip("ipywidgets")
    from hloscope.jupyter.panels.lazy_steps import LazyStepsView

    steps = _batch_change_run()
    for target, shown in ((lz.steps()[-2:], steps[-2:]), (steps[1], [steps[1]])):
        view = hloscope.explore(target)
        try:
            assert isinstance(view, LazyStepsView) and view.steps == list(shown)
        finally:
            view.close()
