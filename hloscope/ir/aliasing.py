"""`input_output_alias`: which outputs of the ENTRY may be written into which parameters'
buffers, XLA's module header attribute (`HloInputOutputAliasConfig`):

    HloModule step, input_output_alias={ {0}: (1, {}, may-alias), {1}: (2, {}, may-alias) }

`{0}` is the output's shape index (in the ROOT tuple), `(1, {})` the parameter number and
the shape index inside it, and the kind says whether the runtime may (`may-alias`) or must
(`must-alias`) reuse the buffer. A lazy step writes it for in-place parameter updates.

`buffer_donor={ (0, {}), (1, {}) }` names parameter buffers the runtime may reuse for any
output (XLA's `HloBufferDonorConfig`). Both are checked against the ENTRY's shapes by
`ir/alias_checks.py`.
"""

from __future__ import annotations

from dataclasses import dataclass

from .scanner import Scanner

KINDS = ("may-alias", "must-alias")


@dataclass(frozen=True)
class Alias:
    """Output at `output_index` shares the buffer of parameter `parameter` at `parameter_index`."""

    output_index: tuple[int, ...]
    parameter: int
    parameter_index: tuple[int, ...] = ()
    kind: str = "may-alias"


def _index(index: tuple[int, ...]) -> str:
    return "{" + ",".join(map(str, index)) + "}"


@dataclass(frozen=True)
class InputOutputAlias:
    """The whole attribute: its aliases in order."""

    aliases: tuple[Alias, ...]

    def __str__(self) -> str:
        if not self.aliases:
            return "{}"
        body = ", ".join(f"{_index(a.output_index)}: ({a.parameter}, {_index(a.parameter_index)}, {a.kind})"
                         for a in self.aliases)
        return "{ " + body + " }"

    def parameter_of(self, output: tuple[int, ...]) -> int | None:
        for a in self.aliases:
            if a.output_index == output and not a.parameter_index:
                return a.parameter
        return None


def parse_input_output_alias(s: Scanner) -> InputOutputAlias:
    """`{ {0}: (1, {}, may-alias), ... }` from the scanner (the key and `=` already read)."""
    s.expect("{")
    aliases: list[Alias] = []
    while not s.accept("}"):
        if aliases:
            s.expect(",", "',' between aliases")
        output = _parse_index(s)
        s.expect(":")
        s.expect("(")
        parameter = s.integer("a parameter number")
        s.expect(",")
        parameter_index = _parse_index(s)
        kind = "may-alias"
        if s.accept(","):
            kind = next((k for k in KINDS if s.keyword(k)), "")
            if not kind:
                s.fail(f"expected may-alias or must-alias, found {s.describe_here()}")
        s.expect(")")
        aliases.append(Alias(output, parameter, parameter_index, kind))
    # An output written twice keeps its first alias, as XLA's parser keeps it.
    firsts = {a.output_index: a for a in reversed(aliases)}
    return InputOutputAlias(tuple(a for a in aliases if firsts[a.output_index] is a))


@dataclass(frozen=True)
class BufferDonor:
    """`buffer_donor`: (parameter number, shape index in it) of each donated buffer."""

    donors: tuple[tuple[int, tuple[int, ...]], ...]

    def __str__(self) -> str:
        if not self.donors:
            return "{}"
        return "{ " + ", ".join(f"({p}, {_index(i)})" for p, i in self.donors) + " }"


def parse_buffer_donor(s: Scanner) -> BufferDonor:
    """`{ (0, {}), (1, {}) }` from the scanner (the key and `=` already read)."""
    s.expect("{")
    donors: list[tuple[int, tuple[int, ...]]] = []
    while not s.accept("}"):
        if donors:
            s.expect(",", "',' between buffer donors")
        s.expect("(", "'(' to start a buffer donor such as (0, {})")
        parameter = s.integer("a parameter number")
        s.expect(",")
        donors.append((parameter, _parse_index(s)))
        s.expect(")")
    return BufferDonor(tuple(donors))


def _parse_index(s: Scanner) -> tuple[int, ...]:
    s.expect("{", "a shape index such as {0}")
    index: list[int] = []
    while not s.accept("}"):
        if index:
            s.expect(",")
        index.append(s.integer("a shape index"))
    return tuple(index)
