"""XLA's live ranges as it dumps them (`<backend>_after_optimizations-live-range.txt`,
HloLiveRange::ToString in xla/hlo/analysis/hlo_live_range.cc, then the peak's breakdown):

    HloLiveRange (max 9):
      InstructionSequence:
        0:x.1
        ...
      BufferLiveRange:
        ynn_fusion.1{}:5-6
      Live ranges at 7 (peak):
        w1.1{}: 131072 bytes (cumulative: 131072 bytes)

The sequence is the whole program's schedule flattened (a while loop's body and condition
inline, where they run); a range `start-end` is in those positions, `max` meaning "to the end"
(parameters and the result).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .errors import XlaDumpError

_HEAD = re.compile(r"^HloLiveRange \(max (\d+)\):")
_STEP = re.compile(r"^    (\d+):(\S+)$")
_RANGE = re.compile(r"^    (\S+):(\d+)-(\d+)$")
_PEAK = re.compile(r"^  Live ranges at (\d+) \(peak\):")
_CUMULATIVE = re.compile(r"\(cumulative: (\d+) bytes\)")


@dataclass
class LiveRanges:
    """The schedule, each value's [start, end] in it, and the position and bytes of XLA's peak."""

    max: int
    sequence: list[str] = field(default_factory=list)
    ranges: dict[str, tuple[int, int]] = field(default_factory=dict)
    peak_position: int | None = None
    peak_bytes: int = 0


def read_live_ranges(path: Path) -> LiveRanges:
    lines = path.read_text().splitlines()
    head = _HEAD.match(lines[0]) if lines else None
    if head is None:
        raise XlaDumpError(f"{path}: does not start with 'HloLiveRange (max N):': not XLA's live ranges (truncated?)")
    live = LiveRanges(int(head.group(1)))
    section = ""
    for number, line in enumerate(lines[1:], 2):
        if not line.startswith("    "):
            section = line.strip()
            peak = _PEAK.match(line)
            if peak is not None:
                live.peak_position = int(peak.group(1))
            continue
        if section == "InstructionSequence:":
            step = _STEP.match(line)
            if step is None or int(step.group(1)) != len(live.sequence):
                raise XlaDumpError(f"{path}, line {number}: expected position {len(live.sequence)} of the "
                                   f"instruction sequence, found {line.strip()!r}")
            live.sequence.append(step.group(2))
        elif section == "BufferLiveRange:":
            found = _RANGE.match(line)
            if found is None:
                raise XlaDumpError(f"{path}, line {number}: cannot read this live range: {line.strip()!r}")
            live.ranges[found.group(1)] = (int(found.group(2)), int(found.group(3)))
        elif live.peak_position is not None and section.startswith("Live ranges at"):
            cumulative = _CUMULATIVE.search(line)
            if cumulative is not None:
                live.peak_bytes = int(cumulative.group(1))
    if not live.sequence:
        raise XlaDumpError(f"{path}: no InstructionSequence: XLA's live-range dump is cut short")
    return live
