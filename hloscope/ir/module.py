"""An HLO module: computations (callees before callers), the ENTRY's name, header attributes
and, as in current XLA dumps, the stack-frame tables that map `stack_frame_id` to source.

A module is an immutable value: every pass returns a new one and may share unchanged
computations with the old, so keeping a snapshot after every pass costs almost nothing.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Iterator

from .attributes import ModuleAttrValue, ProgramShape
from .computation import Computation
from .instruction import Instruction
from .verifier import verify_module


@dataclass(frozen=True)
class StackFrames:
    """The FileNames / FunctionNames / FileLocations / StackFrames tables of a dump.

    locations maps an id to a dict with file_name_id, function_name_id, line, ... ;
    frames maps an id to (file_location_id, parent_frame_id).
    """

    file_names: dict[int, str] = field(default_factory=dict)
    function_names: dict[int, str] = field(default_factory=dict)
    locations: dict[int, dict[str, int]] = field(default_factory=dict)
    frames: dict[int, tuple[int, int]] = field(default_factory=dict)

    def __hash__(self) -> int:  # equal tables have equal sizes (the dicts themselves cannot be hashed)
        return hash((len(self.file_names), len(self.function_names), len(self.locations), len(self.frames)))

    def source(self, frame_id: int) -> tuple[str, int, str] | None:
        """(file, line, function) of a stack frame id, or None if unknown."""
        frame = self.frames.get(frame_id)
        loc = frame and self.locations.get(frame[0])
        if not loc:
            return None
        return (
            self.file_names.get(loc.get("file_name_id", -1), "?"),
            loc.get("line", 0),
            self.function_names.get(loc.get("function_name_id", -1), "?"),
        )


@dataclass(frozen=True, eq=False)
class HloModule:
    """A whole HLO program. Build one with `parse_hlo` or `ModuleBuilder`."""

    name: str
    computations: tuple[Computation, ...]
    entry: str
    attrs: dict[str, ModuleAttrValue] = field(default_factory=dict)  # header attributes, in print order
    stack_frames: StackFrames | None = None

    def __post_init__(self):
        object.__setattr__(self, "computations", tuple(self.computations))

    # ---- lookups ----
    @cached_property
    def _by_name(self) -> dict[str, Computation]:
        return {c.name: c for c in self.computations}

    def computation(self, name: str) -> Computation:
        return self._by_name[name]

    def has_computation(self, name: str) -> bool:
        return name in self._by_name

    @property
    def entry_computation(self) -> Computation:
        return self._by_name[self.entry]

    def __iter__(self) -> Iterator[Computation]:
        return iter(self.computations)

    @property
    def is_scheduled(self) -> bool:
        return bool(self.attrs.get("is_scheduled", False))

    @property
    def entry_layout(self) -> ProgramShape:
        """The entry's program shape (from the header when present, else from the ENTRY)."""
        layout = self.attrs.get("entry_computation_layout")
        if isinstance(layout, ProgramShape):
            return layout
        e = self.entry_computation
        return ProgramShape(e.parameter_shapes, e.result_shape)

    def instruction_count(self) -> int:
        return sum(len(c) for c in self.computations)

    def all_instructions(self) -> Iterator[tuple[Computation, Instruction]]:
        for comp in self.computations:
            for inst in comp:
                yield comp, inst

    def source_of(self, inst: Instruction) -> tuple[str, int, str] | None:
        """(file, line, function) of an instruction, from its metadata or the stack frames."""
        md = inst.metadata
        if md is None:
            return None
        if md.source_file is not None:
            return (md.source_file, md.source_line or 0, md.op_name or "")
        frame = md.get("stack_frame_id")
        if isinstance(frame, int) and self.stack_frames is not None:
            return self.stack_frames.source(frame)
        return None

    # ---- making new modules ----
    def replace(self, **changes: Any) -> "HloModule":
        """A copy with some fields changed (e.g. `module.replace(computations=...)`)."""
        return dataclasses.replace(self, **changes)

    def with_computation(self, comp: Computation) -> "HloModule":
        """A module with `comp` replacing the computation of the same name (or appended)."""
        if comp.name not in self._by_name:
            return self.replace(computations=self.computations + (comp,))
        return self.replace(
            computations=tuple(comp if c.name == comp.name else c for c in self.computations)
        )

    # ---- text, checks, display ----
    def to_text(self, *, operand_shapes: bool = False, metadata: bool = True) -> str:
        """XLA's HLO text for this module (parse_hlo reads it back to an identical module)."""
        # Imported here, not at the top: the printer imports this module (import cycle).
        from .printer import format_module

        return format_module(self, operand_shapes=operand_shapes, metadata=metadata)

    def verify(self) -> "HloModule":
        """Check every shape, operand count and reference; raise HloVerifierError if wrong."""
        verify_module(self)
        return self

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"<HloModule {self.name}: {len(self.computations)} computations, {self.instruction_count()} instructions>"

    def __eq__(self, other: object) -> bool:
        """The same program: name, entry, header attributes, stack frames, and computations
        with equal instructions in the same order (what to_text would print, compared
        without printing it)."""
        if self is other:
            return True
        if not isinstance(other, HloModule):
            return NotImplemented
        if (self.name, self.entry, self.attrs, self.stack_frames) != (other.name, other.entry, other.attrs,
                                                                       other.stack_frames):
            return False
        return len(self.computations) == len(other.computations) and all(
            a is b or (a.name, a.root, a.execution_thread, a.instructions) == (b.name, b.root, b.execution_thread,
                                                                              b.instructions)
            for a, b in zip(self.computations, other.computations))

    def __hash__(self) -> int:
        return hash((self.name, self.entry, len(self.computations)))

    def _repr_html_(self) -> str:
        """How Jupyter shows a module."""
        # Imported only when Jupyter asks: viz is a layer above ir and imports it.
        from ..viz.hlo_html import module_html

        return module_html(self)
