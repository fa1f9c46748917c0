"""The thunk sequence: a GPU program as XLA's runtime runs it, each step on a stream.

    0 launch fusion_3 grid=(4,1,1) block=(256,1,1) stream=0 waits=[] buffers=[parameter 0 (4096 B), ...]
    1 launch dot_4    grid=(2,2,1) block=(16,16,1) stream=1 waits=[] buffers=[...]
    2 launch add_5    grid=(4,1,1) block=(256,1,1) stream=0 waits=[event 1 (stream 1)] buffers=[...]

A stream runs its thunks in order; two streams run side by side. When a thunk needs what
a thunk on another stream wrote, that thunk records an event and this one waits on it
(cudaEventRecord / cudaStreamWaitEvent). Loops and conditionals are driven by the host,
which reads their predicate back, so they join every stream: they and the thunks nested
in them run on stream 0 (`depth` > 0 for nested ones).

Plain data, filled by the GPU target (backend/gpu/streams.py) and read by the views.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Thunk:
    """One step: a kernel launch, a device copy, or a host-driven loop or conditional."""

    index: int
    kind: str  # "kernel", "copy", "while", "conditional"
    name: str  # the kernel's name, or what is copied / looped / branched on
    instruction: str  # the HLO instruction it computes ("" for copies of constants)
    stream: int
    waits: tuple[int, ...] = ()  # thunks on other streams whose events this one waits on
    buffers: tuple[str, ...] = ()
    launch: str = ""  # grid and block of a kernel
    depth: int = 0  # > 0: inside a loop or a branch
    bytes: int = 0  # what a copy moves

    def line(self, streams: dict[int, int]) -> str:
        """The thunks.txt line (`streams`: thunk index -> its stream, for the waits)."""
        waits = ", ".join(f"event {w} (stream {streams[w]})" for w in self.waits)
        launch = f" {self.launch}" if self.launch else ""
        return (f"{'  ' * self.depth}{self.index} {self.kind} {self.name}{launch} stream={self.stream} "
                f"waits=[{waits}] buffers=[{', '.join(self.buffers)}]")


@dataclass(frozen=True)
class ThunkSequence:
    """Every thunk in launch order, and how many streams they use."""

    thunks: tuple[Thunk, ...]
    max_streams: int
    arena_bytes: int = 0  # the device buffer assignment's one arena (buffers say where in it)

    @property
    def streams(self) -> int:
        return 1 + max((t.stream for t in self.thunks), default=0)

    def text(self) -> str:
        """thunks.txt: a header, then one line per thunk in launch order."""
        where = {t.index: t.stream for t in self.thunks}
        head = (f"# {len(self.thunks)} thunks on {self.streams} stream(s) (at most {self.max_streams}); "
                f"device arena {self.arena_bytes:,} B; the host waits for every stream before the output copies")
        return "\n".join([head] + [t.line(where) for t in self.thunks])

    def __str__(self) -> str:
        return self.text()
