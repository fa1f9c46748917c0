"""MLIR locations to HLO metadata: `op_name`, `source_file` and `source_line`.

JAX writes each operation's location as a chain: a name (`"jit(f)/dot_general"`) around a call
site (the user's line, called from the line that called it), usually through aliases printed at
the end of the module (`#loc12 = loc("model.py":6:9 to :30)`). XLA's own conversion keeps the
outermost name as op_name and the innermost file position (the callee's, in a call site) as the
source line; so does this.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

_MAX_DEPTH = 256  # alias chains are short; a cycle would be a malformed module


@dataclass(frozen=True)
class OpLocation:
    op_name: str | None = None
    file: str | None = None
    line: int | None = None

    def metadata(self) -> str:
        """The `metadata={...}` attribute, or "" when there is nothing to say."""
        fields = []
        if self.op_name:
            fields.append(f"op_name={_quote(self.op_name)}")
        if self.file:
            fields.append(f"source_file={_quote(self.file)}")
        if self.line:
            fields.append(f"source_line={self.line}")
        return "metadata={" + " ".join(fields) + "}" if fields else ""

    def where(self) -> str:
        return f"{self.file}:{self.line}" if self.file and self.line else ""


def resolve(location: Any, aliases: dict[str, Any]) -> OpLocation:
    """The op name and the source position a parsed location stands for."""
    name = _first_name(location, aliases, 0)
    position = _position(location, aliases, 0)
    return OpLocation(name, *(position or (None, None)))


def _deref(location: Any, aliases: dict[str, Any]) -> Any:
    seen = 0
    while location and location[0] == "ref" and seen < _MAX_DEPTH:
        location, seen = aliases.get(location[1]), seen + 1
    return location


def _first_name(location: Any, aliases: dict[str, Any], depth: int) -> str | None:
    location = _deref(location, aliases)
    if not location or depth > _MAX_DEPTH:
        return None
    kind = location[0]
    if kind == "name":
        return location[1] or _first_name(location[2], aliases, depth + 1)
    if kind == "callsite":
        return _first_name(location[1], aliases, depth + 1)
    if kind == "fused":
        return next((n for part in location[1] if (n := _first_name(part, aliases, depth + 1))), None)
    return None


def _position(location: Any, aliases: dict[str, Any], depth: int) -> tuple[str, int] | None:
    location = _deref(location, aliases)
    if not location or depth > _MAX_DEPTH:
        return None
    kind = location[0]
    if kind == "file":
        return location[1], location[2]
    if kind == "name":
        return _position(location[2], aliases, depth + 1)
    if kind == "callsite":  # the callee's position is the one the user wrote this op on
        return _position(location[1], aliases, depth + 1) or _position(location[2], aliases, depth + 1)
    if kind == "fused":
        return next((p for part in location[1] if (p := _position(part, aliases, depth + 1))), None)
    return None


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
