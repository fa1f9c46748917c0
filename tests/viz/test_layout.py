"""The layout service: warm workers, one cache, timeouts that kill and recover, prefetching
that gives way to a click, idle close, and the fallbacks (system `dot`, then a message)."""

from __future__ import annotations

import os
import sys
import threading
import time

import pytest
from viz_helpers import chain_module

from hloscope.viz import layout, render
from hloscope.viz.graph import module_to_dot
from hloscope.viz.layout import LayoutService, default_service, render_many, render_svg

needs_pygraphviz = pytest.mark.skipif(
    "pygraphviz" not in render.available_engines(), reason="pygraphviz is not installed"
)

SMALL = "digraph g { a -> b; b -> c; }"
# Graphviz needs far more than a few seconds for this one: a layout that must be stopped.
_EDGES = "; ".join(f"n{i} -> n{j}" for i in range(300) for j in (i + 1, i * 7 % 300, i * 13 % 300))
TANGLED = f"digraph g {{ {_EDGES}; }}"


def slow_dots(count: int) -> list[str]:
    """Distinct DOT texts that each take a warm worker ~0.1-0.2 s."""
    dot = module_to_dot(chain_module(60), max_nodes=10_000)
    return [dot + f"// {i}\n" for i in range(count)]


@pytest.fixture
def service():
    s = LayoutService()
    yield s
    s.close()


@pytest.fixture
def fake_dot(tmp_path, monkeypatch):
    """A `dot` program on PATH (a Python script) whose behaviour the test writes."""

    def make(body: str) -> None:
        script = tmp_path / "dot"
        script.write_text(f"#!{sys.executable}\nimport sys, time\ndata = sys.stdin.read()\n{body}\n")
        script.chmod(0o755)
        monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ.get('PATH', '')}")

    return make


@needs_pygraphviz
def test_render_svg_draws_a_module_with_instruction_names(softmax_opt):
    result = render_svg(module_to_dot(softmax_opt, id_prefix="g-"), timeout=30)
    assert result.ok and result.message == "" and result.engine == "pygraphviz"
    svg = result.svg
    assert svg.startswith("<svg") and "<?xml" not in svg and "<!DOCTYPE" not in svg
    drawn = [softmax_opt.entry] + [i.attr("calls") for i in softmax_opt.entry_computation if i.opcode == "fusion"]
    for comp in map(softmax_opt.computation, drawn):
        for inst in comp:
            if inst.opcode != "parameter" or comp.name == softmax_opt.entry:
                assert f'data-instruction="{inst.name}"' in svg
    assert 'id="g-x.1"' in svg and "<title>x.1</title>" in svg
    assert 'class="cluster hlo-fusion kind-kCustom"' in svg  # Graphviz's &#45; turned back into '-'


@needs_pygraphviz
def test_the_process_wide_service_is_shared_and_caches(softmax_opt):
    dot = module_to_dot(softmax_opt, id_prefix="shared-")
    first = render_svg(dot, timeout=30)
    assert default_service() is default_service()
    assert default_service().cached(dot, 30) is first and render_svg(dot, timeout=30) is first
    assert render_many([dot], timeout=30)[0] is first


@needs_pygraphviz
def test_layouts_are_cached_and_the_worker_is_reused(service):
    first = service.render(SMALL)
    assert first.ok and "<svg" in first.svg and service.worker_alive
    assert service.render(SMALL) is first and service.layouts == 1
    assert service.render("digraph g { x -> y; }").ok and service.layouts == 2
    assert service.workers_alive == 1  # one process did both
    service.close()
    assert not service.worker_alive
    assert service.render(SMALL) is first  # the cache outlives the process
    assert service.render("digraph g { p -> q; }").ok and service.worker_alive  # and a new one starts


@needs_pygraphviz
def test_the_cache_is_least_recently_used_and_bounded():
    s = LayoutService(max_entries=2)
    a, b, c = (f"digraph g {{ {n} -> z; }}" for n in "abc")
    s.render(a), s.render(b), s.render(a), s.render(c)
    assert s.cached(a) is not None and s.cached(c) is not None and s.cached(b) is None
    s.close()
    tiny = LayoutService(max_chars=100)  # an SVG is longer than that: nothing is kept
    assert tiny.render(a).ok and tiny.cached(a) is None
    tiny.close()


@needs_pygraphviz
def test_a_timeout_kills_the_worker_and_a_fresh_one_takes_the_next_graph(service):
    assert service.render(SMALL).ok  # warm: the timeout below is spent on the layout itself
    start = time.perf_counter()
    result = service.render(TANGLED, timeout=0.2)
    assert time.perf_counter() - start < 5
    assert result.svg is None and "stopped after 0.2 s" in result.message and result.engine == "pygraphviz"
    assert not service.worker_alive
    assert service.render("digraph g { after -> timeout; }").ok and service.worker_alive


@needs_pygraphviz
def test_a_timeout_is_cached_with_the_timeout_it_was_tried_with(service):
    failed = service.render(TANGLED, timeout=0.2)
    assert service.render(TANGLED, timeout=0.2) is failed and service.layouts == 1
    assert service.cached(TANGLED, timeout=0.1) is failed  # a shorter try would fail too
    assert service.cached(TANGLED, timeout=30) is None  # a longer one deserves a new try


@needs_pygraphviz
def test_a_pathological_graph_through_render_svg_does_not_hang():
    dot = module_to_dot(chain_module(600), max_nodes=10_000)
    start = time.perf_counter()
    result = render_svg(dot, timeout=0.05)
    assert time.perf_counter() - start < 5
    assert result.svg is None and "stopped after 0.05 s" in result.message


@needs_pygraphviz
def test_render_many_survives_a_timeout_and_renders_the_rest(softmax_opt):
    big = module_to_dot(chain_module(600), max_nodes=10_000) + "// many\n"
    small = module_to_dot(softmax_opt, id_prefix="many-")
    layout.clear_cache()
    results = render_many([big, small, small], timeout=0.3, workers=1)
    assert results[0].svg is None and "stopped after" in results[0].message
    assert results[1].ok and results[2] is results[1]


@needs_pygraphviz
def test_render_many_lays_out_in_parallel_workers():
    s = LayoutService(max_workers=2)
    dots = slow_dots(4)
    results = s.render_many(dots, timeout=30)
    assert all(r.ok for r in results) and s.layouts == 4
    assert s.workers_alive == 2  # both stay warm for the next call
    s.close()


def test_render_many_within_a_spent_budget_lays_out_nothing_and_caches_nothing(service):
    results = service.render_many([SMALL, "digraph g { u -> v; }"], budget=0.0)
    assert all(r.svg is None and "budget was spent" in r.message and r.engine == "none" for r in results)
    assert service.layouts == 0 and service.cached(SMALL) is None and not service.worker_alive


@needs_pygraphviz
def test_prefetch_fills_the_cache(service):
    dots = [f"digraph g {{ n{i} -> m{i}; }}" for i in range(5)]
    prefetch = service.prefetch(iter(dots))
    prefetch.join(timeout=60)
    assert not prefetch.is_alive() and prefetch.error is None
    assert all(service.cached(d) is not None for d in dots) and service.layouts == 5
    assert all(service.render(d) is service.cached(d) for d in dots) and service.layouts == 5


@needs_pygraphviz
def test_a_click_waits_for_at_most_the_layout_in_progress():
    s = LayoutService(max_workers=1)  # one worker: the click and the prefetch compete for it
    started = threading.Event()

    def dots():
        for dot in slow_dots(12):
            started.set()
            yield dot

    prefetch = s.prefetch(dots())
    assert started.wait(30)
    time.sleep(0.05)
    before = s.layouts
    assert s.render(SMALL).ok
    assert s.layouts - before <= 3  # the prefetch's layout in progress (maybe one more), then ours
    prefetch.join(timeout=60)
    assert s.layouts == 13  # and the prefetch went on afterwards
    s.close()


@needs_pygraphviz
def test_a_graph_being_prefetched_is_laid_out_once(service):
    dot = slow_dots(1)[0]
    started = threading.Event()

    def dots():
        started.set()
        yield dot

    prefetch = service.prefetch(dots())
    assert started.wait(30)
    result = service.render(dot)
    prefetch.join(timeout=60)
    assert result.ok and service.cached(dot) is result and service.layouts == 1


@needs_pygraphviz
def test_a_prefetch_can_be_cancelled(service):
    def endless():
        i = 0
        while True:
            i += 1
            yield f"digraph g {{ e{i} -> f{i}; }}"

    prefetch = service.prefetch(endless())
    time.sleep(0.3)
    prefetch.cancel()
    prefetch.join(timeout=10)
    assert prefetch.cancelled and not prefetch.is_alive()
    done = service.layouts
    time.sleep(0.2)
    assert service.layouts == done


@needs_pygraphviz
def test_closing_during_a_layout_ends_it_without_caching_a_failure(service):
    started = threading.Event()

    def dots():
        started.set()
        yield TANGLED

    prefetch = service.prefetch(dots(), timeout=60)
    assert started.wait(30)
    time.sleep(0.3)
    start = time.perf_counter()
    service.close()
    prefetch.join(timeout=10)
    assert not prefetch.is_alive() and time.perf_counter() - start < 5
    assert service.cached(TANGLED, timeout=60) is None and not service.worker_alive
    assert service.render(SMALL).ok  # still usable


@needs_pygraphviz
def test_idle_workers_are_closed():
    s = LayoutService(idle_seconds=0.2)
    s.render(SMALL)
    deadline = time.time() + 10
    while s.worker_alive and time.time() < deadline:
        time.sleep(0.05)
    assert not s.worker_alive
    assert s.render("digraph g { idle -> again; }").ok
    s.close()


def test_no_engine_means_a_message_and_nothing_cached(monkeypatch, service):
    monkeypatch.setattr(render, "available_engines", list)
    result = service.render(SMALL)
    assert result.svg is None and "pip install pygraphviz" in result.message and result.engine == "none"
    assert service.cached(SMALL) is None and service.layouts == 0 and not service.worker_alive


def test_without_pygraphviz_the_system_dot_lays_out(monkeypatch, fake_dot, service):
    fake_dot("sys.stdout.write('<?xml version=\"1.0\"?>\\n<svg><text>%d</text></svg>' % len(data))")
    monkeypatch.setattr(render, "available_engines", lambda: ["dot"])
    result = service.render(SMALL)
    assert result.ok and result.engine == "dot" and result.svg == f"<svg><text>{len(SMALL)}</text></svg>"
    assert not service.worker_alive  # one `dot` per graph, no worker


def test_a_system_dot_past_its_timeout_is_stopped(monkeypatch, fake_dot, service):
    fake_dot("time.sleep(60)")
    monkeypatch.setattr(render, "available_engines", lambda: ["dot"])
    start = time.perf_counter()
    result = service.render(SMALL, timeout=0.5)
    assert time.perf_counter() - start < 10
    assert result.svg is None and "stopped after 0.5 s" in result.message and result.engine == "dot"


def test_a_worker_that_cannot_run_falls_back_to_dot_then_to_a_message(monkeypatch, fake_dot):
    monkeypatch.setattr(render, "_WORKER", "import sys; sys.exit(3)")  # e.g. a broken pygraphviz
    monkeypatch.setattr(render, "available_engines", lambda: ["pygraphviz", "dot"])
    fake_dot("sys.stderr.write('Error: syntax error in line 1\\n'); sys.exit(1)")
    s = LayoutService()
    result = s.render(SMALL)
    assert result.svg is None and result.engine == "dot"
    assert "pygraphviz: the layout process exited with code 3" in result.message
    assert "dot: Error: syntax error in line 1" in result.message
    monkeypatch.setattr(render, "available_engines", lambda: ["pygraphviz"])
    alone = s.render("digraph g { only -> pygraphviz; }")
    assert alone.svg is None and "exited with code 3" in alone.message
    s.close()


@needs_pygraphviz
def test_a_broken_dot_text_is_reported(service):
    result = service.render("digraph { this is not dot ", timeout=10)
    assert result.svg is None and "failed" in result.message and service.worker_alive  # the worker survives


def test_bad_input_is_a_clear_error_and_a_bad_prefetch_ends_quietly(service):
    with pytest.raises(TypeError, match="DOT text"):
        service.render(None)
    with pytest.raises(TypeError, match="DOT text"):
        service.render_many([SMALL, 3])
    with pytest.raises(ValueError, match="positive number of seconds"):
        service.render(SMALL, timeout=0)
    with pytest.raises(ValueError, match="positive number of seconds"):
        service.prefetch([SMALL], timeout=float("inf"))
    with pytest.raises(ValueError, match="at least one worker"):
        service.render_many([SMALL], workers=0)

    def broken():
        yield 42

    prefetch = service.prefetch(broken())
    prefetch.join(timeout=10)
    assert isinstance(prefetch.error, TypeError) and not prefetch.is_alive()
