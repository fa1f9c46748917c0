"""Mutations that make a generated module invalid in one known place, and the judge of whether
an error is about that defect.

Each mutation changes one instruction (or the module's end) and says where the defect is
(its lines; the instruction, for the verifier's errors) and what an error about it says (a
pattern). `about_the_defect(error, mutation)` is the benchmark's "rejected for the real
defect": a parse error on one of those lines matching the pattern, or a verifier error
naming the instruction and matching it.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace
from typing import Callable

from module_generator import Generated, GenInst  # pyright: ignore[reportMissingImports]

import hloscope as hs


@dataclass(frozen=True)
class Mutation:
    kind: str
    text: str
    lines: tuple[int, ...]  # where a parse error about the defect may point (any line when empty)
    pattern: str  # what an error about the defect says (a regex)
    inst: str  # the instruction a verifier error about it names (any when empty)


def about_the_defect(error: BaseException, m: Mutation) -> bool:
    """Whether `error` reports `m`'s defect rather than something else."""
    message = str(error)
    if not re.search(m.pattern, message, re.I):
        return False
    if isinstance(error, hs.HloParseError):
        return not m.lines or error.line in m.lines
    if isinstance(error, hs.HloVerifierError):
        return not m.inst or re.search(rf"(?<![\w.-]){re.escape(m.inst)}(?![\w.-])", message) is not None
    return False


def _with(gen: Generated, inst: GenInst, kind: str, pattern: str, extra_lines: tuple[int, ...] = (), **changes) -> Mutation:
    lines = list(gen.lines)
    lines[inst.line - 1] = gen.render(replace(inst, **changes))
    return Mutation(kind, "\n".join(lines) + "\n", (inst.line, *extra_lines), pattern, inst.name)


def _body(i: GenInst) -> bool:
    return i.opcode not in ("parameter", "constant")


# ---- what a parser rejects ----
def unknown_opcode(g, i):
    return _with(g, i, "unknown opcode", "unknown opcode", opcode=i.opcode + "z")


def undefined_operand(g, i):
    if not _body(i) or not i.operands:
        return None
    return _with(g, i, "undefined operand", r"missing\.99.*does not exist|does not exist.*missing\.99",
                 operands=["missing.99", *i.operands[1:]])


def unknown_element_type(g, i):
    dtype = re.match(r"\(?([a-z0-9]+)\[", i.shape)
    if dtype is None:
        return None
    return _with(g, i, "unknown element type", "unknown element type 'q32'", shape=i.shape.replace(dtype.group(1), "q32", 1))


def duplicate_name(g, i):
    earlier = [j for j in g.insts if j.line < i.line]
    if not earlier or i.name == "tuple.root":
        return None
    return _with(g, i, "duplicate name", "used twice|defined twice", name=earlier[-1].name)


def layout_of_wrong_rank(g, i):
    m = re.fullmatch(r"([a-z0-9]+)\[([\d,]+)\](\{[\d,]*\})?", i.shape)
    if m is None:
        return None
    rank = len(m.group(2).split(","))
    bad = "{0}" if rank > 1 else "{0,1}"
    return _with(g, i, "layout of the wrong rank", "layout", shape=f"{m.group(1)}[{m.group(2)}]{bad}")


def unknown_attribute(g, i):
    return _with(g, i, "attribute the opcode does not take", "takes no attribute 'frob'", attrs=[*i.attrs, "frob=1"])


def duplicate_attribute(g, i):
    if not i.attrs:
        return None
    return _with(g, i, "attribute given twice", "given twice", attrs=[*i.attrs, i.attrs[0]])


def bad_dimensions_value(g, i):
    k = next((n for n, a in enumerate(i.attrs) if a.startswith("dimensions=")), None)
    if k is None:
        return None
    return _with(g, i, "dimensions= not a list of integers", "expected an integer|integer",
                 attrs=[*i.attrs[:k], "dimensions={a}", *i.attrs[k + 1:]])


def bad_direction(g, i):
    if i.opcode != "compare":
        return None
    return _with(g, i, "unknown comparison direction", "direction", attrs=["direction=SIDEWAYS", *i.attrs[1:]])


def literal_too_short(g, i):
    if i.opcode != "constant" or "[]" in i.shape:
        return None
    literal = i.operands[0]
    shorter = re.sub(r",\s*([^,{}]+|\{[^{}]*\})\}$", "}", literal)
    if shorter == literal:
        return None
    return _with(g, i, "literal with too few elements", "literal|elements|values|expected", operands=[shorter])


def missing_computation(g, i):
    k = next((n for n, a in enumerate(i.attrs) if a.startswith("to_apply=")), None)
    if k is None:
        return None
    return _with(g, i, "called computation missing", "nowhere.*does not exist",
                 attrs=[*i.attrs[:k], "to_apply=nowhere", *i.attrs[k + 1:]])


def negative_dimension(g, i):
    if not re.match(r"[a-z0-9]+\[\d", i.shape):
        return None
    return _with(g, i, "negative dimension", "dimension|expected|size", shape=re.sub(r"\[(\d+)", "[-2", i.shape, count=1))


def required_attribute_missing(g, i):
    k = next((n for n, a in enumerate(i.attrs) if a.startswith("to_apply=")), None)
    if k is None:
        return None
    return _with(g, i, "required attribute missing", "to_apply", attrs=[*i.attrs[:k], *i.attrs[k + 1:]])


def literal_out_of_range(g, i):
    m = re.fullmatch(r"(s8|u8|f16)\[\]", i.shape)
    if i.opcode != "constant" or m is None:
        return None
    big = {"s8": "300", "u8": "-7", "f16": "1e6"}[m.group(1)]
    return _with(g, i, "literal out of its type's range", "range|fit|finite|negative", operands=[big])


def operand_written_with_another_shape(g, i):
    if not _body(i) or not i.operands:
        return None
    lines = list(g.lines)
    lines[i.line - 1] = g.render(i).replace(f"({g.pct}{i.operands[0]}", f"(f32[99] {g.pct}{i.operands[0]}", 1)
    return Mutation("operand written with another shape", "\n".join(lines) + "\n", (i.line,), "written here as", i.name)


def second_root(g, i):
    if g.lines[i.line - 1].lstrip().startswith("ROOT "):
        return None
    lines = list(g.lines)
    lines[i.line - 1] = lines[i.line - 1].replace("  ", "  ROOT ", 1)
    root_line = max(n for n, line in enumerate(g.lines, 1) if line.lstrip().startswith("ROOT "))  # the ENTRY's
    return Mutation("two ROOTs", "\n".join(lines) + "\n", (i.line, root_line), "more than one ROOT", i.name)


def unclosed_computation(g, i):
    return Mutation("computation never closed", "\n".join(g.lines[:-1]) + "\n", (len(g.lines) - 1, len(g.lines)),
                    "not closed|expected|end of input", "")


def unclosed_operand_list(g, i):
    if not _body(i) or not i.attrs:
        return None
    lines = list(g.lines)
    lines[i.line - 1] = g.render(i).replace("), ", ", ", 1)
    return Mutation("operand list never closed", "\n".join(lines) + "\n", (i.line,), "expected|operand", i.name)


# ---- what only a verifier rejects ----
def declared_shape_differs(g, i):
    m = re.fullmatch(r"([a-z0-9]+)\[([\d,]*)\](\{[\d,]*\})?", i.shape)
    # (a call's declared shape: compiling through StableHLO takes the callee's, so XLA's verifier
    # never sees it here)
    if not _body(i) or m is None or i.opcode in ("iota", "reshape", "broadcast", "convert", "get-tuple-element", "call"):
        return None
    dims = m.group(2) + ("," if m.group(2) else "") + "7"
    return _with(g, i, "declared shape differs from the inferred one", "shape|inferred|declared",
                 shape=f"{m.group(1)}[{dims}]")


def dimension_out_of_range(g, i):
    k = next((n for n, a in enumerate(i.attrs) if a.startswith(("dimensions=", "iota_dimension="))), None)
    # (not map's: compiling through StableHLO rewrites them, so XLA's verifier never sees them here)
    if k is None or i.attrs[k] == "dimensions={}" or i.opcode == "map":
        return None
    key = i.attrs[k].split("=")[0]
    bad = "iota_dimension=9" if key == "iota_dimension" else "dimensions={9}"
    return _with(g, i, f"{key} out of range", r"dimension|range|9", attrs=[*i.attrs[:k], bad, *i.attrs[k + 1:]])


def operand_of_another_type(g, i):
    if i.opcode not in ("add", "subtract", "multiply", "maximum", "minimum", "and", "or", "xor", "divide"):
        return None
    convert = next((j for j in g.insts if j.line < i.line and j.opcode == "parameter"), None)
    if convert is None or convert.shape.split("[")[0] == i.shape.split("[")[0]:
        return None
    return _with(g, i, "operand of another element type", r"type|shape|operand|inferred",
                 operands=[convert.name, *i.operands[1:]])


MUTATIONS: tuple[Callable[[Generated, GenInst], Mutation | None], ...] = (
    unknown_opcode, undefined_operand, unknown_element_type, duplicate_name, layout_of_wrong_rank, unknown_attribute,
    duplicate_attribute, bad_dimensions_value, bad_direction, literal_too_short, missing_computation,
    negative_dimension, required_attribute_missing, literal_out_of_range, operand_written_with_another_shape,
    second_root, unclosed_computation, unclosed_operand_list, declared_shape_differs, dimension_out_of_range,
    operand_of_another_type)


def mutate(gen: Generated, kind: int, rng: random.Random) -> Mutation | None:
    """MUTATIONS[kind] applied to a random instruction it fits, or None when none fits."""
    insts = list(gen.insts)
    rng.shuffle(insts)
    for inst in insts:
        m = MUTATIONS[kind](gen, inst)
        if m is not None:
            return m
    return None
