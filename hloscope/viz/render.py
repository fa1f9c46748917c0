"""DOT -> SVG in a child process, bounded in time: the engines behind hloscope.viz.layout.

Graphviz's `dot` takes ~1.4 s on a 300-node DAG, ~40 s on 1000 nodes, and can run for
minutes on some cyclic graphs, and its C code cannot be interrupted from Python. So every
layout runs in a child process that is killed at the timeout:

1. pygraphviz (its wheels bundle Graphviz) in a `LayoutWorker`: a `python -S` child that
   reads length-prefixed DOT texts from stdin and answers each with a status byte and a
   length-prefixed SVG, so one start-up (~0.1 s) serves many graphs (~0.02 s each);
2. the system `dot -Tsvg`, one child per graph, when pygraphviz is not installed or its
   worker cannot run (`render_with_dot`);
3. neither: `svg=None` and a message saying why, so the caller shows a summary.

Nothing here is kept between calls: which workers stay warm, the cache and the priorities
belong to hloscope.viz.layout.LayoutService.
"""

from __future__ import annotations

import html
import importlib.util
import math
import os
import re
import select
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass

DEFAULT_TIMEOUT = 3.0
NO_ENGINE_MESSAGE = (
    "no graph layout: neither pygraphviz nor Graphviz's `dot` is installed "
    "(pip install pygraphviz); showing a summary instead"
)

# `python -S` skips site-packages' .pth processing (half the start-up time); the child is
# told where pygraphviz lives instead.
_WORKER = r"""
import sys
sys.path.insert(0, sys.argv[1])
import pygraphviz
inp, out = sys.stdin.buffer, sys.stdout.buffer
while True:
    head = inp.read(8)
    if len(head) < 8:
        break
    dot = inp.read(int.from_bytes(head, "little")).decode("utf-8")
    try:
        body, status = pygraphviz.AGraph(string=dot).draw(format="svg", prog="dot"), 0
    except Exception as e:
        body, status = str(e).encode("utf-8"), 1
    out.write(bytes([status]) + len(body).to_bytes(8, "little") + body)
    out.flush()
"""


@dataclass(frozen=True)
class RenderResult:
    """svg: the SVG markup (no XML prolog, ready to inline in HTML) or None;
    message: why there is no SVG (or ""); engine: "pygraphviz", "dot" or "none"
    ("none": no engine was tried, e.g. none is installed or the time budget was spent)."""

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


def not_tried(message: str) -> RenderResult:
    """A result for a graph no engine was asked to lay out (engine "none")."""
    return RenderResult(None, message, 0.0, "none")


def layout_failed(reason: str, seconds: float, engine: str) -> RenderResult:
    """A result for a graph Graphviz could not lay out (a DOT error, a crash)."""
    return RenderResult(None, f"graph layout failed ({reason}); showing a summary instead", seconds, engine)


def timeout_message(timeout: float) -> str:
    """What a graph that was not laid out within `timeout` seconds shows instead."""
    return (
        f"graph layout stopped after {timeout:g} s (the graph is too large or too tangled "
        f"for Graphviz in that time); showing a summary instead"
    )


class WorkerError(Exception):
    """The worker process could not be started or stopped answering (not the graph's fault)."""


class _Late(Exception):
    """The deadline passed while talking to the worker."""


class LayoutWorker:
    """One pygraphviz child process that lays out graphs one after another."""

    def __init__(self):
        if not hasattr(select, "poll"):  # Windows cannot wait on a pipe with a timeout
            raise WorkerError("layout workers need a POSIX system")
        spec = importlib.util.find_spec("pygraphviz")
        if spec is None or spec.origin is None:
            raise WorkerError("pygraphviz is not installed")
        root = os.path.dirname(os.path.dirname(spec.origin))  # the folder holding the package
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-S", "-c", _WORKER, root],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError as e:
            raise WorkerError(f"could not start the layout process: {e}") from e
        assert self.proc.stdin is not None and self.proc.stdout is not None, "both are PIPEs"
        self._stdin, self._stdout = self.proc.stdin, self.proc.stdout
        # Non-blocking, so that even writing a large DOT text to a stuck child keeps the deadline.
        os.set_blocking(self._stdin.fileno(), False)
        self._writable, self._readable = select.poll(), select.poll()
        self._writable.register(self._stdin.fileno(), select.POLLOUT)
        self._readable.register(self._stdout.fileno(), select.POLLIN)

    def render(self, dot: str, timeout: float) -> RenderResult:
        """Lay out `dot` within `timeout` seconds. Past it the process is killed (this worker
        is then dead) and the result says so; WorkerError if the process died or cannot run."""
        start = time.perf_counter()
        deadline = start + timeout
        data = dot.encode("utf-8", "replace")
        try:
            self._write(len(data).to_bytes(8, "little") + data, deadline)
            head = self._read(9, deadline)
            body = self._read(int.from_bytes(head[1:], "little"), deadline)
        except _Late:
            self.close()
            return RenderResult(None, timeout_message(timeout), time.perf_counter() - start, "pygraphviz")
        except (OSError, EOFError) as e:
            self.close()
            raise WorkerError(f"the layout process exited with code {self.proc.returncode} ({e})") from e
        seconds = time.perf_counter() - start
        if head[0] != 0 or b"<svg" not in body:
            return layout_failed(body.decode("utf-8", "replace")[:300] or "no SVG", seconds, "pygraphviz")
        return RenderResult(clean_svg(body.decode("utf-8", "replace")), "", seconds, "pygraphviz")

    def _write(self, data: bytes, deadline: float) -> None:
        fd, view = self._stdin.fileno(), memoryview(data)
        while view:
            _wait(self._writable, deadline)
            try:
                view = view[os.write(fd, view) :]
            except BlockingIOError:
                continue

    def _read(self, n: int, deadline: float) -> bytes:
        """Exactly n bytes from the child, or _Late at the deadline."""
        fd, chunks, got = self._stdout.fileno(), [], 0
        while got < n:
            _wait(self._readable, deadline)
            chunk = os.read(fd, min(n - got, 1 << 20))
            if not chunk:
                raise EOFError("no answer")
            chunks.append(chunk)
            got += len(chunk)
        return b"".join(chunks)

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def kill(self) -> None:
        """Stop the process now; safe from another thread while one is talking to it (the
        pipes are left to `close`, which only the thread using the worker calls)."""
        if self.proc.poll() is None:
            self.proc.kill()

    def close(self) -> None:
        """Kill the process, reap it and close its pipes."""
        self.kill()
        self.proc.wait()
        for pipe in (self._stdin, self._stdout):
            try:
                pipe.close()
            except OSError:
                pass


def _wait(poller, deadline: float) -> None:
    """Wait until the pipe `poller` watches is ready (or closed), or raise _Late at the deadline."""
    left = deadline - time.perf_counter()
    if left <= 0 or not poller.poll(min(math.ceil(left * 1000), 2**31 - 1)):  # poll takes a C int
        raise _Late


def render_with_dot(dot: str, timeout: float, earlier_failure: str = "") -> RenderResult:
    """Lay out `dot` with the system `dot -Tsvg`, one child killed at the timeout.
    earlier_failure: why pygraphviz did not do it, kept in the message if this fails too."""
    start = time.perf_counter()
    reasons = [earlier_failure] if earlier_failure else []
    try:
        done = subprocess.run(
            ["dot", "-Tsvg"], input=dot.encode("utf-8", "replace"), capture_output=True, timeout=timeout, check=False
        )
    except subprocess.TimeoutExpired:  # subprocess.run has killed the child
        return RenderResult(None, timeout_message(timeout), time.perf_counter() - start, "dot")
    except OSError as e:
        return layout_failed("; ".join([*reasons, f"dot: {e}"]), time.perf_counter() - start, "dot")
    seconds = time.perf_counter() - start
    if done.returncode == 0 and b"<svg" in done.stdout:
        return RenderResult(clean_svg(done.stdout.decode("utf-8", "replace")), "", seconds, "dot")
    return layout_failed("; ".join([*reasons, f"dot: {_last_line(done.stderr)}"]), seconds, "dot")


def _last_line(stderr: bytes) -> str:
    lines = [ln for ln in stderr.decode("utf-8", "replace").splitlines() if ln.strip() and "Fontconfig" not in ln]
    return lines[-1][:300] if lines else "no output"


_PROLOG = re.compile(r"<\?xml[^>]*\?>|<!DOCTYPE[^>]*>|<!--.*?-->", re.DOTALL)
_NODE_G = re.compile(r'<g id="([^"]*)" class="([^"]*\bhlo-(?:node|fusion)\b[^"]*)">\s*<title>([^<]*)</title>')


_SCOPE_G = re.compile(r'<g id="([^"]*)" class="((?:[^"]* )?hlo-scope(?:-box)?(?: [^"]*)?)">\s*<title>([^<]*)</title>')
_SCOPE_TITLE = re.compile(r"^(?:cluster_)?scope:")


def clean_svg(svg: str) -> str:
    """Drop the XML prolog, DOCTYPE and comments (so the SVG inlines into HTML), and give
    every instruction node and fusion cluster a `data-instruction` attribute (its name), and
    every name-scope node or box (hloscope.viz.graph_scopes) a `data-scope` (its key)."""
    svg = _PROLOG.sub("", svg).strip().replace("&#45;", "-")  # Graphviz escapes every '-'
    return _SCOPE_G.sub(_tag_scope, _NODE_G.sub(_tag_node, svg))


def _tag_scope(m: re.Match) -> str:
    key = _SCOPE_TITLE.sub("", html.unescape(m.group(3)))
    return (
        f'<g id="{m.group(1)}" class="{m.group(2)}" data-scope="{html.escape(key)}">'
        f"\n<title>{m.group(3)}</title>"
    )


def _tag_node(m: re.Match) -> str:
    name = html.unescape(m.group(3)).rsplit("/", 1)[-1]  # "fusion/inst" when a name repeats
    if "hlo-fusion" in m.group(2):
        name = name.removeprefix("cluster_")
    return (
        f'<g id="{m.group(1)}" class="{m.group(2)}" data-instruction="{html.escape(name)}">'
        f"\n<title>{m.group(3)}</title>"
    )
