"""XLA's buffer assignment as it dumps it (`<backend>_after_optimizations-buffer-assignment.txt`,
BufferAssignment::ToString in xla/service/buffer_assignment.cc):

    allocation 6: size 32768, preallocated-temp:
     value: <33 ynn_fusion.1 @0> (size=32768,offset=0): f32[32,256]{1,0}
     value: <35 multiply_multiply_fusion @0> (size=32768,offset=0): f32[32,256]{1,0}

An allocation's tags say what it is: `parameter N`, `constant`, `thread-local` (a value of a
computation a kernel calls per element, never in memory the runtime allocates),
`maybe-live-out` / `output shape is |...|` (the result), `preallocated-temp` or none (a
temporary). A value is `<id name[{index}][ (phi)] @color>`; its offset is within the allocation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .errors import XlaDumpError

_ALLOCATION = re.compile(r"^allocation (\d+): size (\d+)(.*):\s*$")
_VALUE = re.compile(r"^ value: <(\d+) ([^ >{]+)(\{[\d,]*\})?( \(phi\))? @\d+> \(size=(\d+),offset=(\d+)\)")
_PARAMETER = re.compile(r"\bparameter (\d+)")


@dataclass(frozen=True)
class AllocatedValue:
    """One HLO value placed in an allocation: `name` is its instruction, `index` the tuple
    element (`{0}`), `key` how XLA's live-range dump names it (`name{index}`)."""

    id: int
    name: str
    index: tuple[int, ...]
    size: int
    offset: int
    phi: bool = False

    @property
    def label(self) -> str:
        """As hloscope's plan names a value: `name`, or `name{0}` for a tuple's element."""
        return self.name + (f"{{{','.join(map(str, self.index))}}}" if self.index else "")

    @property
    def key(self) -> str:
        return f"{self.name}{{{','.join(map(str, self.index))}}}"


@dataclass
class Allocation:
    """One of XLA's allocations: `kind` is parameter, constant, thread-local, output or temporary."""

    index: int
    size: int
    kind: str
    parameter: int | None = None
    values: list[AllocatedValue] = field(default_factory=list)
    live_out: bool = False  # holds (part of) the output: a donated parameter is this and a parameter


def _kind(tags: str) -> str:
    if _PARAMETER.search(tags):
        return "parameter"
    for tag, kind in (("constant", "constant"), ("thread-local", "thread-local"), ("maybe-live-out", "output"),
                      ("output shape is", "output")):
        if tag in tags:
            return kind
    return "temporary"


def read_buffer_assignment(path: Path) -> list[Allocation]:
    """The allocations in the file, in its order; a line that is neither gets an error naming it."""
    allocations: list[Allocation] = []
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if line.startswith("allocation "):
            m = _ALLOCATION.match(line)
            if m is None:
                raise XlaDumpError(f"{path}, line {number}: cannot read this allocation: {line[:120]!r}")
            parameter = _PARAMETER.search(m.group(3))
            allocations.append(Allocation(int(m.group(1)), int(m.group(2)), _kind(m.group(3)),
                                          int(parameter.group(1)) if parameter else None,
                                          live_out="maybe-live-out" in m.group(3)))
        elif line.startswith(" value:"):
            v = _VALUE.match(line)
            if v is None or not allocations:
                raise XlaDumpError(f"{path}, line {number}: cannot read this value: {line[:120]!r}")
            index = tuple(int(i) for i in (v.group(3) or "{}")[1:-1].split(",") if i)
            allocations[-1].values.append(AllocatedValue(int(v.group(1)), v.group(2), index, int(v.group(5)),
                                                         int(v.group(6)), bool(v.group(4))))
    if not allocations:
        raise XlaDumpError(f"{path}: no 'allocation N: size ...' lines: not XLA's buffer assignment (truncated?)")
    return allocations
