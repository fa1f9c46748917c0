"""What the host runs for a GPU executable: a sequence of steps, like XLA:GPU's thunks.

    KernelLaunch   launch one kernel with its grid, block and buffer pointers
    DeviceCopy     copy one buffer into another on the device (or a constant's bytes into it)
    WhileLoop      init copies; then repeat: run the condition's steps, read the predicate
                   back to the host, stop if false, run the body's steps, copy next -> state
    Conditional    read the selector back to the host, run the chosen branch's steps

Control flow lives on the host because a kernel cannot launch the next one: the predicate
of a loop is one byte copied back after each condition, which is what XLA's WhileThunk does
too (and why a GPU loop with a tiny body is dominated by launch and copy latency).

Every buffer in every step is already in the entry's terms (a parameter, an output or an
arena offset), however deeply the loop or branch is nested, so the executable only ever
resolves one kind of address.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Callable, Iterator, Union

if TYPE_CHECKING:  # annotations only: the host program needs no backend code to run
    from ..buffers import ArrayStorage


@dataclass(frozen=True)
class KernelLaunch:
    """One launch of the schedule: a kernel by name, its launch shape and its buffers."""

    name: str
    grid: tuple
    block: tuple
    shared_bytes: int  # static shared memory (the launch itself asks for no dynamic memory)
    buffers: tuple  # backend.buffers.ArrayStorage, in argument order

    def describe(self) -> str:
        g, b = self.grid, self.block
        return f"launch {self.name} <<<({g[0]}, {g[1]}, {g[2]}), ({b[0]}, {b[1]}, {b[2]})>>>"


@dataclass(frozen=True)
class DeviceCopy:
    """dst = src on the device; with `data` (a constant's bytes), dst = data from the host."""

    src: ArrayStorage | None  # None: `data` is the source
    dst: ArrayStorage
    data: bytes | None = None
    constant: str = ""  # the constant instruction `data` holds

    def describe(self) -> str:
        source = f"constant {self.constant}" if self.src is None else self.src.describe()
        return f"copy {source} -> {self.dst.describe()}"


@dataclass(frozen=True)
class WhileLoop:
    instruction: str
    init: tuple  # DeviceCopy steps: the operand into the loop's state
    condition: tuple  # steps writing `pred`
    pred: ArrayStorage  # one byte
    body: tuple  # steps reading the state, writing the next state
    update: tuple  # DeviceCopy steps: next state -> state

    def describe(self) -> str:
        return f"while {self.instruction} (the host reads the predicate after each condition)"


@dataclass(frozen=True)
class Conditional:
    instruction: str
    selector: ArrayStorage  # pred (true runs branch 0) or s32 (out of range: the last)
    branches: tuple  # a tuple of steps per branch

    def describe(self) -> str:
        return f"conditional {self.instruction} on {self.selector.describe()} ({len(self.branches)} branches)"


Step = Union[KernelLaunch, DeviceCopy, WhileLoop, Conditional]  # one step of a host program


@dataclass(frozen=True)
class DeviceProgram:
    """Everything a call needs besides the code: steps, buffer places, host copies."""

    steps: tuple
    arena_bytes: int
    params: tuple  # ArrayStorage per entry parameter
    outputs: tuple  # ArrayStorage per flat result
    output_copies: tuple  # (source ArrayStorage, output ArrayStorage), done on the host after the steps
    constants: dict  # constant instruction name -> its bytes (for constant results)

    @property
    def launches(self) -> list[KernelLaunch]:
        """Every kernel launch of the program once, loops and branches included."""
        return list(kernel_launches(self.steps))

    def describe(self) -> str:
        """The steps as an indented listing (the report's "program")."""
        return "\n".join(listing(self.steps))


def kernel_launches(steps) -> Iterator[KernelLaunch]:
    for step in steps:
        if isinstance(step, KernelLaunch):
            yield step
        for nested in _nested(step):
            yield from kernel_launches(nested)


def _nested(step) -> list[tuple]:
    if isinstance(step, WhileLoop):
        return [step.init, step.condition, step.body, step.update]
    if isinstance(step, Conditional):
        return list(step.branches)
    return []


def listing(steps, depth: int = 0) -> list[str]:
    lines = []
    pad = "  " * depth
    for step in steps:
        lines.append(pad + step.describe())
        if isinstance(step, WhileLoop):
            for title, part in (("init", step.init), ("condition", step.condition), ("body", step.body),
                                ("next -> state", step.update)):
                if part:
                    lines.append(f"{pad}  {title}:")
                    lines += listing(part, depth + 2)
        elif isinstance(step, Conditional):
            for k, branch in enumerate(step.branches):
                lines.append(f"{pad}  branch {k}:")
                lines += listing(branch, depth + 2) or [f"{pad}    (nothing to run)"]
    return lines


def relocate(steps, place: Callable) -> tuple:
    """The same steps with every buffer passed through `place` (a called computation's
    buffers into its caller's terms)."""
    out = []
    for step in steps:
        if isinstance(step, KernelLaunch):
            out.append(replace(step, buffers=tuple(place(b) for b in step.buffers)))
        elif isinstance(step, DeviceCopy):
            out.append(replace(step, src=None if step.src is None else place(step.src), dst=place(step.dst)))
        elif isinstance(step, WhileLoop):
            out.append(replace(step, init=relocate(step.init, place), condition=relocate(step.condition, place),
                               pred=place(step.pred), body=relocate(step.body, place),
                               update=relocate(step.update, place)))
        elif isinstance(step, Conditional):
            out.append(replace(step, selector=place(step.selector),
                               branches=tuple(relocate(b, place) for b in step.branches)))
        else:
            raise TypeError(f"not a device program step: {step!r}")
    return tuple(out)
