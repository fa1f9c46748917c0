"""How fast a real model's first graph appears when it is grouped by name scopes.

    python benchmarks/graph_scopes.py               # 5,000-instruction synthetic step + GPT-2 train step
    python benchmarks/graph_scopes.py 20000         # other sizes of the synthetic step

Modules: generate_scoped.make_scoped_module(n) (op_name nested like JAX's for value_and_grad of
a layer stack, then an optimizer), tests/models/gpt2_train_step.opt.hlo (XLA's optimized
GPT-2 training step with the op_name metadata JAX wrote) and, with jax installed, the module
JAX hands XLA for a 15-block GPT-2 step written with named scopes (tests/viz/scoped_jax.py),
and that module after hloscope's passes (fusions across scopes: the hard case for Graphviz).
Each graph is timed cold: a fresh layout service (its worker process starts inside the
measurement) and a fresh parse, so the scope tree is built inside it too. Printed per module:

  scopes ms     scope tree + first view + DOT (hloscope.viz.graph_scopes.scoped_graph)
  layout s      Graphviz on that DOT (worker start included)
  first graph s graph_html(module): what a reader waits for; goal < 2 s
  open s        graph_html with the biggest closed scope opened (warm worker)
  flat/scoped   how many nodes the ungrouped graph would draw / the first view draws
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from generate_scoped import make_scoped_module  # noqa: E402

from hloscope import optimize, parse_hlo  # noqa: E402
from hloscope.viz import layout  # noqa: E402
from hloscope.viz.graph import graph_size  # noqa: E402
from hloscope.viz.graph_scopes import scoped_graph  # noqa: E402
from hloscope.viz.graph_view import graph_html  # noqa: E402

GOAL_SECONDS = 2.0
TESTS = Path(__file__).resolve().parent.parent / "tests"
GPT2 = TESTS / "models" / "gpt2_train_step.opt.hlo"


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _timed(fn, *args, **kwargs):
    start = time.perf_counter()
    value = fn(*args, **kwargs)
    return value, time.perf_counter() - start


def _fresh_service() -> None:
    """Close the process-wide layout service's workers and forget its cache: a cold start."""
    service = layout.default_service()
    service.close()
    service.clear_cache()


def bench(name: str, text: str) -> None:
    module = parse_hlo(text)
    g, scope_s = _timed(scoped_graph, module)
    if g is None or g.dot is None or g.view is None:
        print(f"{name:31s} no scoped graph: {g.note if g else 'no scopes'}")
        return
    _fresh_service()
    result, layout_s = _timed(layout.render_svg, g.dot, 30.0)
    _fresh_service()
    fresh = parse_hlo(text)  # the scope tree is cached per module: time it from scratch
    page, first_s = _timed(graph_html, fresh, timeout=30.0)
    closed = [p for p in g.tree.scopes if p and p not in g.view.expanded and g.view.is_open(p[:-1])]
    biggest = max(closed, key=lambda p: g.tree.scopes[p].size) if closed else None
    open_s = _timed(graph_html, fresh, timeout=30.0, expanded=[biggest])[1] if biggest else 0.0
    flat = graph_size(module)
    ok = "ok" if first_s < GOAL_SECONDS and result.ok and "<svg" in page else "SLOW"
    print(
        f"{name:31s} {module.instruction_count():6d} {scope_s * 1000:9.1f} {layout_s:8.2f} {first_s:13.2f}"
        f" {open_s:6.2f} {flat:6d}/{g.nodes:<4d} {ok}  ({first_s / GOAL_SECONDS:.2f} of the {GOAL_SECONDS:g} s goal)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description="time the first scoped graph of real-model-like modules")
    parser.add_argument("sizes", nargs="*", type=int, default=[5000])
    args = parser.parse_args()
    print(f"{'module':31s} {'insts':>6s} {'scopes ms':>9s} {'layout s':>8s} {'first graph s':>13s} {'open s':>6s}"
          f" {'flat/scoped':>11s}")
    for n in args.sizes:
        bench(f"synthetic step ({n})", make_scoped_module(n))
    bench("gpt2_train_step (XLA opt)", GPT2.read_text())
    if importlib.util.find_spec("jax") is not None:  # a real one: JAX's own metadata, 15 named blocks
        scoped_jax = _load(TESTS / "viz" / "scoped_jax.py")
        text = scoped_jax.gpt2_input_text(15)
        bench("named GPT-2 x15 (JAX input)", text)
        optimized = optimize(parse_hlo(text)).module
        assert optimized is not None, "the passes made no module"
        bench("named GPT-2 x15 (hloscope opt)", optimized.to_text())
    layout.default_service().close()


if __name__ == "__main__":
    main()
