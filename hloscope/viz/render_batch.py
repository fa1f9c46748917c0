"""Many layouts with one child process per worker instead of one per graph.

Starting Python and importing pygraphviz costs ~0.1 s, while laying out a 30-node graph
takes ~0.02 s, so an export with dozens of graphs would mostly pay for start-up. A batch
worker is a child that reads length-prefixed DOT texts from stdin and answers each with a
status byte and a length-prefixed SVG. The parent waits for each answer with `select` and
the graph's own timeout; on a timeout it kills the child and starts a fresh one for the
remaining graphs, so the bound per graph holds exactly as in `render_svg`.

It lives only for one `render_batch` call: no process is kept between calls.
"""

from __future__ import annotations

import os
import queue
import select
import subprocess
import sys
import threading
import time

from .render import RenderResult, _pygraphviz_root, clean_svg, timeout_message

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


class _Worker:
    """One child process that lays out graphs one after another."""

    def __init__(self):
        self.proc = subprocess.Popen(
            [sys.executable, "-S", "-c", _WORKER, _pygraphviz_root()],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )

    def render(self, dot: str, timeout: float) -> RenderResult:
        start = time.perf_counter()
        data = dot.encode("utf-8")
        try:
            self.proc.stdin.write(len(data).to_bytes(8, "little") + data)
            self.proc.stdin.flush()
            head = self._read(9, start + timeout)
            body = self._read(int.from_bytes(head[1:], "little"), start + timeout)
        except TimeoutError:
            self.close()
            return RenderResult(None, timeout_message(timeout), time.perf_counter() - start, "pygraphviz")
        except (OSError, EOFError) as e:
            self.close()
            return RenderResult(
                None, f"graph layout failed ({e}); showing a summary instead", time.perf_counter() - start, "pygraphviz"
            )
        seconds = time.perf_counter() - start
        if head[0] != 0:
            message = f"graph layout failed ({body.decode('utf-8', 'replace')[:300]}); showing a summary instead"
            return RenderResult(None, message, seconds, "pygraphviz")
        return RenderResult(clean_svg(body.decode("utf-8", "replace")), "", seconds, "pygraphviz")

    def _read(self, n: int, deadline: float) -> bytes:
        """Exactly n bytes from the child, or TimeoutError at the deadline."""
        fd, chunks, got = self.proc.stdout.fileno(), [], 0
        while got < n:
            left = deadline - time.perf_counter()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise TimeoutError
            chunk = os.read(fd, min(n - got, 1 << 20))
            if not chunk:
                raise EOFError("the layout process exited")
            chunks.append(chunk)
            got += len(chunk)
        return b"".join(chunks)

    @property
    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for pipe in (self.proc.stdin, self.proc.stdout):
            try:
                pipe.close()
            except OSError:
                pass


def supported() -> bool:
    """Batch workers need pygraphviz and `select` on pipes (POSIX)."""
    import importlib.util

    return os.name == "posix" and importlib.util.find_spec("pygraphviz") is not None


def render_batch(
    dots: list[str], timeout: float, workers: int = 1, deadline: float | None = None
) -> list[RenderResult]:
    """Lay out every DOT text with `workers` child processes; results in input order.
    Graphs not started before `deadline` (a perf_counter time) get a "budget spent" result."""
    results: list[RenderResult | None] = [None] * len(dots)
    todo: queue.Queue = queue.Queue()
    for i in range(len(dots)):
        todo.put(i)

    def run() -> None:
        worker = None
        try:
            while True:
                try:
                    i = todo.get_nowait()
                except queue.Empty:
                    return
                if deadline is not None and time.perf_counter() > deadline:
                    results[i] = RenderResult(None, "not laid out: the layout time budget was spent", 0.0, "none")
                    continue
                worker = worker if worker is not None and worker.alive else _Worker()
                results[i] = worker.render(dots[i], timeout)
        finally:
            if worker is not None:
                worker.close()

    threads = [threading.Thread(target=run, daemon=True) for _ in range(max(1, min(workers, len(dots))))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return results
