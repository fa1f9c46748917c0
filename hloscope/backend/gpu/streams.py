"""Stream assignment: independent kernels on separate streams, with the events they wait on.

Like XLA's stream_assignment.cc: build the dependency DAG of the top-level steps, then walk
them in launch order and give each a stream greedily:

    - a stream whose last thunk is an ancestor of this one (reusing it serializes nothing
      that could have overlapped), the lowest such stream first;
    - else a new stream, up to `max_streams`;
    - else the stream with the fewest thunks.

Then each thunk waits, per other stream, on the event of its latest dependency there.

Two steps depend on each other when they touch the same device memory and it is not
read-only: arena bytes that overlap (a producer's result, or a temporary reused by the
memory plan) or the same output. Parameters and constants are only read, so two kernels
reading the same weight still overlap. A loop or conditional is driven by the host: it
waits for everything before it and everything after waits for it (stream 0).
"""

from __future__ import annotations

from ...runtime.thunks import Thunk, ThunkSequence
from ..buffers import Buffer
from .program import Conditional, DeviceCopy, KernelLaunch, Step, WhileLoop, kernel_launches, listing

MAX_STREAMS = 4  # XLA's default too (xla_gpu_... uses a handful; more rarely helps)
WRITABLE = ("arena", "output")


def step_buffers(step: Step) -> list[Buffer]:
    """Every buffer a step touches, nested steps included."""
    if isinstance(step, KernelLaunch):
        return list(step.buffers)
    if isinstance(step, DeviceCopy):
        return [step.dst] + ([] if step.src is None else [step.src])
    found = [step.pred] if isinstance(step, WhileLoop) else [step.selector] if isinstance(step, Conditional) else []
    for launch in kernel_launches([step]):
        found += launch.buffers
    return found


def is_host_driven(step: Step) -> bool:
    return isinstance(step, (WhileLoop, Conditional))


def conflict(a: list[Buffer], b: list[Buffer]) -> bool:
    """Do two steps share memory that someone may write?"""
    return any(x.kind in WRITABLE and x.overlaps(y) for x in a for y in b)


def dependencies(steps: tuple) -> list[set[int]]:
    """For each top-level step, the earlier steps it must wait for (direct only)."""
    touched = [step_buffers(s) for s in steps]
    deps: list[set[int]] = []
    for i, step in enumerate(steps):
        if is_host_driven(step):
            deps.append(set(range(i)))
            continue
        deps.append({j for j in range(i) if is_host_driven(steps[j]) or conflict(touched[i], touched[j])})
    return deps


def ancestors(deps: list[set[int]]) -> list[set[int]]:
    """Transitive closure of the dependencies, in launch order."""
    closed: list[set[int]] = []
    for direct in deps:
        found = set(direct)
        for j in direct:
            found |= closed[j]
        closed.append(found)
    return closed


def assign(steps: tuple, max_streams: int = MAX_STREAMS) -> list[int]:
    """A stream per top-level step (the greedy rule in the module docstring)."""
    deps = dependencies(steps)
    before = ancestors(deps)
    tails: list[int | None] = []  # per stream: its last step so far
    counts: list[int] = []
    chosen: list[int] = []
    for i, step in enumerate(steps):
        free = [s for s, tail in enumerate(tails) if tail is None or tail in before[i]]
        if is_host_driven(step):
            stream = 0
        elif free:
            stream = free[0]
        elif len(tails) < max_streams:
            stream = len(tails)
            tails.append(None)
            counts.append(0)
        else:
            stream = min(range(len(tails)), key=lambda s: counts[s])
        if not tails:
            tails.append(None)
            counts.append(0)
        tails[stream], counts[stream] = i, counts[stream] + 1
        chosen.append(stream)
    return chosen


def waits(deps: list[set[int]], streams: list[int]) -> list[tuple[int, ...]]:
    """Per step: on each other stream, only the latest dependency (the earlier ones are
    ordered before it on that stream already)."""
    out = []
    for i, direct in enumerate(deps):
        latest: dict[int, int] = {}
        for j in direct:
            if streams[j] != streams[i]:
                latest[streams[j]] = max(latest.get(streams[j], -1), j)
        out.append(tuple(sorted(latest.values())))
    return out


def thunk_sequence(steps: tuple, instruction_of: dict[str, str], max_streams: int = MAX_STREAMS) -> ThunkSequence:
    """The program's thunks in launch order with streams and events; nested steps follow
    their loop or conditional on stream 0."""
    streams = assign(steps, max_streams)
    waited = waits(dependencies(steps), streams)
    thunks: list[Thunk] = []
    for step, stream, wait in zip(steps, streams, waited):
        _add(thunks, step, stream, wait, 0, instruction_of)
    return ThunkSequence(tuple(thunks), max_streams)


def _add(thunks: list[Thunk], step: Step, stream: int, wait: tuple, depth: int, instruction_of: dict) -> None:
    top = [t.index for t in thunks if t.depth == 0]
    index = len(thunks)
    waits_at = tuple(top[w] for w in wait) if depth == 0 else ()
    thunks.append(_thunk(step, index, stream, waits_at, depth, instruction_of))
    for nested in _nested_steps(step):
        _add(thunks, nested, 0, (), depth + 1, instruction_of)


def _nested_steps(step: Step) -> list[Step]:
    if isinstance(step, WhileLoop):
        return [*step.init, *step.condition, *step.body, *step.update]
    if isinstance(step, Conditional):
        return [s for branch in step.branches for s in branch]
    return []


def _thunk(step: Step, index: int, stream: int, wait: tuple, depth: int, instruction_of: dict) -> Thunk:
    if isinstance(step, KernelLaunch):
        g, b = step.grid, step.block
        return Thunk(index, "kernel", step.name, instruction_of.get(step.name, ""), stream, wait,
                     tuple(x.describe() for x in step.buffers),
                     f"grid=({g[0]},{g[1]},{g[2]}) block=({b[0]},{b[1]},{b[2]})", depth)
    if isinstance(step, DeviceCopy):
        source = f"constant {step.constant}" if step.src is None else step.src.describe()
        buffers = (step.dst.describe(),) + (() if step.src is None else (step.src.describe(),))
        return Thunk(index, "copy", f"{source} -> {step.dst.describe()}", step.dst.value, stream, wait, buffers,
                     "", depth, step.dst.size)
    kind = "while" if isinstance(step, WhileLoop) else "conditional"
    assert isinstance(step, (WhileLoop, Conditional))
    return Thunk(index, kind, listing([step])[0], step.instruction, stream, wait, (), "", depth)
