"""Where derivative instructions say they come from: JAX's op_name scopes.

Forward instructions traced under `grad` carry `.../jvp(f)/sin`, the backward pass
`.../transpose(jvp(f))/sin` with the forward op's source line, so the explorer can tell the
forward pass from the backward one (and group them, as it groups JAX's own programs).
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from ...ir.attributes import Metadata
from ...ir.instruction import Instruction
from ..trace import Frame


@contextmanager
def scope(frame: Frame, name: str) -> Iterator[None]:
    """Operations traced inside get op_name `<frame scope>/<name>/...` (sub-frames too)."""
    saved = frame.scope
    frame.scope = f"{saved}/{name}"
    try:
        yield
    finally:
        frame.scope = saved


@contextmanager
def emitting_for(frame: Frame, inst: Instruction, transform: str) -> Iterator[None]:
    """Instructions a rule emits for `inst` carry `<transform>/<inst's op>` and inst's source;
    numpy-level operations inside nest silently (their own metadata would hide the origin)."""
    saved_metadata, saved_depth = frame.cb.metadata, frame.depth
    frame.cb.metadata = derived_metadata(frame.scope, inst, transform)
    frame.depth = max(1, frame.depth)
    try:
        yield
    finally:
        frame.cb.metadata, frame.depth = saved_metadata, saved_depth


@contextmanager
def emitting_own(frame: Frame, transform: str, op: str, source: Instruction | None = None) -> Iterator[None]:
    """Instructions the transform makes of its own (a seed, a sum of cotangents that meet)
    carry `<scope>/<transform>/<op>`, as JAX's `add_any` does, so they count as its pass, and
    the source line of `source` (the instruction they serve)."""
    saved_metadata, saved_depth = frame.cb.metadata, frame.depth
    fields: list = [("op_name", f"{frame.scope}/{transform}/{op}")]
    if source is not None and source.metadata is not None:
        fields += [(k, v) for k, v in source.metadata.fields if k in ("source_file", "source_line")]
    frame.cb.metadata = Metadata(tuple(fields))
    frame.depth = max(1, frame.depth)
    try:
        yield
    finally:
        frame.cb.metadata, frame.depth = saved_metadata, saved_depth


def derived_metadata(scope: str, inst: Instruction, transform: str) -> Metadata:
    op = (inst.metadata.op_name if inst.metadata else None) or inst.opcode
    fields: list = [("op_name", f"{scope}/{transform}/{op.rsplit('/', 1)[-1]}")]
    if inst.metadata is not None:
        fields += [(k, v) for k, v in inst.metadata.fields if k in ("source_file", "source_line")]
    return Metadata(tuple(fields))
