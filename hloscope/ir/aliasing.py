"""`input_output_alias`: which outputs of the ENTRY may be written into which parameters'
buffers, XLA's module header attribute (`HloInputOutputAliasConfig`):

    HloModule step, input_output_alias={ {0}: (1, {}, may-alias), {1}: (2, {}, may-alias) }

`{0}` is the output's shape index (in the ROOT tuple), `(1, {})` the parameter number and
the shape index inside it, and the kind says whether the runtime may (`may-alias`) or must
(`must-alias`) reuse the buffer. A lazy step writes it for in-place parameter updates.
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
    return InputOutputAlias(tuple(aliases))


def _parse_index(s: Scanner) -> tuple[int, ...]:
    s.expect("{", "a shape index such as {0}")
    index: list[int] = []
    while not s.accept("}"):
        if index:
            s.expect(",")
        index.append(s.integer("a shape index"))
    return tuple(index)
