"""DOT -> SVG, bounded in time: a layout never hangs the caller and never raises.

Graphviz's `dot` takes ~1.4 s on a 300-node DAG, ~40 s on 1000 nodes, and can run for
minutes on some cyclic graphs, and its C code cannot be interrupted from Python. So the
layout runs in a child process that is killed at the timeout:

1. pygraphviz (its wheels bundle Graphviz) in `python -c`, DOT on stdin, SVG on stdout;
2. the system `dot -Tsvg` if pygraphviz is not installed (or its child failed);
3. otherwise `svg=None` and a message saying why, so the caller shows a summary.

Layouts are cached by DOT text (the only global state here, small and bounded).
"""

from __future__ import annotations

import html
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

DEFAULT_TIMEOUT = 3.0
CACHE_SIZE = 128

# `python -S` skips site-packages' .pth processing (half the start-up time); the child is
# told where pygraphviz lives instead.
_CHILD = (
    "import sys\n"
    "sys.path.insert(0, sys.argv[1])\n"
    "import pygraphviz\n"
    "g = pygraphviz.AGraph(string=sys.stdin.read())\n"
    "sys.stdout.write(g.draw(format='svg', prog='dot').decode('utf-8'))\n"
)

_cache: OrderedDict = OrderedDict()  # dot text -> (RenderResult, timeout it was tried with)
_cache_lock = threading.Lock()


@dataclass(frozen=True)
class RenderResult:
    """svg: the SVG markup (no XML prolog, ready to inline in HTML) or None;
    message: why there is no SVG (or ""); engine: "pygraphviz", "dot" or "none"."""

    svg: str | None
    message: str
    seconds: float
    engine: str

    @property
    def ok(self) -> bool:
        return self.svg is not None


def available_engines() -> list[str]:
    """The layout engines this machine has, in order of preference."""
    engines = []
    if importlib.util.find_spec("pygraphviz") is not None:
        engines.append("pygraphviz")
    if shutil.which("dot"):
        engines.append("dot")
    return engines


def _pygraphviz_root() -> str:
    """The folder that holds the pygraphviz package (its site-packages)."""
    spec = importlib.util.find_spec("pygraphviz")
    return os.path.dirname(os.path.dirname(spec.origin))


def render_svg(dot: str, timeout: float = DEFAULT_TIMEOUT) -> RenderResult:
    """Lay out `dot` and return its SVG, or a message saying why not (timeout, no Graphviz)."""
    hit = _cached(dot, timeout)
    if hit is not None:
        return hit
    result = _render_uncached(dot, timeout)
    _store(dot, result, timeout)
    return result


def _cached(dot: str, timeout: float) -> RenderResult | None:
    """A cached layout, or a cached failure if it was tried with at least this timeout."""
    with _cache_lock:
        hit = _cache.get(dot)
        if hit is not None and (hit[0].ok or timeout <= hit[1]):
            _cache.move_to_end(dot)
            return hit[0]
    return None


def _store(dot: str, result: RenderResult, timeout: float) -> None:
    with _cache_lock:
        _cache[dot] = (result, timeout)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)


def render_many(
    dots: list[str], timeout: float = DEFAULT_TIMEOUT, workers: int | None = None, budget: float | None = None
) -> list[RenderResult]:
    """`render_svg` for several graphs: cached ones are reused, the rest are laid out by a
    few batch workers (hloscope.viz.render_batch), each graph still bounded by `timeout`.
    budget: seconds for the whole call; graphs not started by then get a message instead."""
    from . import render_batch

    deadline = None if budget is None else time.perf_counter() + budget
    results: list[RenderResult | None] = [_cached(d, timeout) for d in dots]
    missing = list(dict.fromkeys(d for d, r in zip(dots, results) if r is None))
    if not missing:
        return results
    workers = workers or max(1, min(os.cpu_count() or 1, 4))
    if render_batch.supported():
        fresh = render_batch.render_batch(missing, timeout, workers, deadline)
    else:
        with ThreadPoolExecutor(max_workers=workers) as pool:
            fresh = list(pool.map(lambda d: _render_uncached(d, timeout), missing))
    by_dot = dict(zip(missing, fresh))
    for d, r in by_dot.items():
        if r.engine != "none":  # a graph skipped for the budget was never tried: do not cache
            _store(d, r, timeout)
    return [r if r is not None else by_dot[d] for d, r in zip(dots, results)]


def clear_cache() -> None:
    with _cache_lock:
        _cache.clear()


def _render_uncached(dot: str, timeout: float) -> RenderResult:
    start = time.perf_counter()
    engines = available_engines()
    if not engines:
        return RenderResult(
            None,
            "no graph layout: neither pygraphviz nor Graphviz's `dot` is installed "
            "(pip install pygraphviz); showing a summary instead",
            0.0,
            "none",
        )
    failures = []
    for engine in engines:
        command = (
            [sys.executable, "-S", "-c", _CHILD, _pygraphviz_root()] if engine == "pygraphviz" else ["dot", "-Tsvg"]
        )
        try:
            done = subprocess.run(command, input=dot.encode("utf-8"), capture_output=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired:  # subprocess.run has killed the child
            return RenderResult(None, timeout_message(timeout), time.perf_counter() - start, engine)
        except OSError as e:
            failures.append(f"{engine}: {e}")
            continue
        if done.returncode == 0 and b"<svg" in done.stdout:
            svg = clean_svg(done.stdout.decode("utf-8", "replace"))
            return RenderResult(svg, "", time.perf_counter() - start, engine)
        failures.append(f"{engine}: {_last_line(done.stderr)}")
    return RenderResult(
        None,
        "graph layout failed (" + "; ".join(failures) + "); showing a summary instead",
        time.perf_counter() - start,
        engines[-1],
    )


def timeout_message(timeout: float) -> str:
    return (
        f"graph layout stopped after {timeout:g} s (the graph is too large or too tangled "
        f"for Graphviz in that time); showing a summary instead"
    )


def _last_line(stderr: bytes) -> str:
    lines = [ln for ln in stderr.decode("utf-8", "replace").splitlines() if ln.strip() and "Fontconfig" not in ln]
    return lines[-1][:300] if lines else "no output"


_PROLOG = re.compile(r"<\?xml[^>]*\?>|<!DOCTYPE[^>]*>|<!--.*?-->", re.DOTALL)
_NODE_G = re.compile(r'<g id="([^"]*)" class="([^"]*\bhlo-(?:node|fusion)\b[^"]*)">\s*<title>([^<]*)</title>')


def clean_svg(svg: str) -> str:
    """Drop the XML prolog, DOCTYPE and comments (so the SVG inlines into HTML), and give
    every instruction node and fusion cluster a `data-instruction` attribute (its name)."""
    svg = _PROLOG.sub("", svg).strip().replace("&#45;", "-")  # Graphviz escapes every '-'
    return _NODE_G.sub(_tag_node, svg)


def _tag_node(m: re.Match) -> str:
    name = html.unescape(m.group(3)).rsplit("/", 1)[-1]  # "fusion/inst" when a name repeats
    if "hlo-fusion" in m.group(2):
        name = name.removeprefix("cluster_")
    return (
        f'<g id="{m.group(1)}" class="{m.group(2)}" data-instruction="{html.escape(name)}">'
        f"\n<title>{m.group(3)}</title>"
    )
