"""The verifier: is a module well formed? (XLA's HloVerifier, xla/service/hlo_verifier.cc.)

The parser does not check shapes, and passes can make mistakes, so the pipeline verifies
after every pass that changed something. Checks, in order:

- module: computation names unique, the entry exists, no computation calls itself, the
  header's entry_computation_layout agrees with the entry (ignoring layouts), and its
  input_output_alias and buffer_donor fit the entry (ir/alias_checks.py);
- computation: instruction names unique, the root exists, parameter numbers are 0..n-1
  once each, no cycle through operands or control-predecessors;
- instruction: the opcode is known, the operand count fits, operands and called
  computations exist, fusion kind and compare direction are valid, a constant's value
  has its shape, and the declared shape equals the inferred one (ignoring layout).

Everything is linear in the module size. `module_errors` yields every problem found;
`verify_module` raises the first. Callees are checked before their callers, and a caller
of a broken computation gets no shape check, so one mistake is reported once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Set
from typing import TYPE_CHECKING, Iterator

import numpy as np

from ..errors import HloVerifierError
from .alias_checks import alias_problems
from .aliasing import BufferDonor, InputOutputAlias
from .attributes import Literal, ProgramShape
from .computation import Computation
from .instruction import Instruction
from .opcodes import COMPARISON_DIRECTIONS, FUSION_KINDS, OPCODES
from .shape import ArrayShape, Shape, TupleShape
from .shape_inference import ShapeRuleError, compatible, fmt, fmt_all, infer_shape

if TYPE_CHECKING:  # only for annotations: the module imports this file to verify itself
    from .module import HloModule

# Operand counts beyond OpInfo.arity: (test, what the test means).
_COUNT_RULES = {
    "reduce": (lambda n: n >= 2 and n % 2 == 0, "an even number (N inputs, N init values)"),
    "reduce-window": (lambda n: n >= 2 and n % 2 == 0, "an even number (N inputs, N init values)"),
    "scatter": (lambda n: n >= 3 and n % 2 == 1, "an odd number (N operands, indices, N updates)"),
    "sort": (lambda n: n >= 1, "at least 1"),
    "map": (lambda n: n >= 1, "at least 1"),
    "concatenate": (lambda n: n >= 1, "at least 1"),
    "dynamic-slice": (lambda n: n >= 2, "at least 2 (operand, start indices)"),
    "dynamic-update-slice": (lambda n: n >= 3, "at least 3 (operand, update, start indices)"),
    "conditional": (lambda n: n >= 2, "at least 2 (branch index, branch operands)"),
    "rng": (lambda n: n == 2, "2"),
}


def verify_module(module: HloModule) -> None:
    """Raise HloVerifierError for the first problem in `module`; return None if it is well formed."""
    for error in module_errors(module):
        raise error


def module_errors(module: HloModule) -> Iterator[HloVerifierError]:
    """Every problem in `module`, each an HloVerifierError naming where it is."""
    counts = Counter(c.name for c in module.computations)
    for name, n in counts.items():
        if n > 1:
            yield HloVerifierError(f"computation name {name} is used {n} times")
    if not module.has_computation(module.entry):
        yield HloVerifierError(f"entry computation {module.entry} does not exist")
    order, recursion = _callees_first(module)
    if recursion:
        yield HloVerifierError(
            f"computations call themselves: {' -> '.join(recursion)}", recursion[0]
        )
        return
    broken: set[str] = set()
    for comp in order:
        for error in computation_errors(comp, module, broken):
            broken.add(comp.name)
            yield error
    if module.entry not in broken and module.has_computation(module.entry):
        yield from _entry_layout_errors(module)
        alias, donor = module.attrs.get("input_output_alias"), module.attrs.get("buffer_donor")
        for problem in alias_problems(module.entry_computation, alias if isinstance(alias, InputOutputAlias) else None,
                                      donor if isinstance(donor, BufferDonor) else None):
            yield HloVerifierError(problem, module.entry)


def _callees_first(module: HloModule) -> tuple[list[Computation], list[str] | None]:
    """Computations in post-order of the call graph, or the cycle if one calls itself."""
    order: list[Computation] = []
    state: dict[str, int] = {}
    for start in module.computations:
        path = _visit_calls(module, start, state, order)
        if path:
            return order, path
    return order, None


def _visit_calls(
    module: HloModule, start: Computation, state: dict[str, int], order: list[Computation]
) -> list[str] | None:
    if start.name in state:
        return None
    state[start.name] = 1
    stack = [(start, iter(_callees(module, start)))]
    while stack:
        comp, callees = stack[-1]
        for callee in callees:
            if state.get(callee.name) == 1:
                names = [c.name for c, _ in stack]
                return names[names.index(callee.name) :] + [callee.name]
            if callee.name not in state:
                state[callee.name] = 1
                stack.append((callee, iter(_callees(module, callee))))
                break
        else:
            state[comp.name] = 2
            order.append(comp)
            stack.pop()
    return None


def _callees(module: HloModule, comp: Computation) -> Iterator[Computation]:
    for inst in comp.instructions:
        for name in inst.called_computations():
            if isinstance(name, str) and module.has_computation(name):
                yield module.computation(name)


def _entry_layout_errors(module: HloModule) -> Iterator[HloVerifierError]:
    layout = module.attrs.get("entry_computation_layout")
    if not isinstance(layout, ProgramShape):
        return
    entry = module.entry_computation
    got = ProgramShape(entry.parameter_shapes, entry.result_shape)
    same = len(layout.parameters) == len(got.parameters) and all(
        compatible(a, b) for a, b in zip(layout.parameters, got.parameters)
    )
    if not (same and compatible(layout.result, got.result)):
        yield HloVerifierError(
            f"entry_computation_layout ({fmt_all(layout.parameters)}) -> {fmt(layout.result)} does not "
            f"match the entry ({fmt_all(got.parameters)}) -> {fmt(got.result)}",
            entry.name,
        )


# ---- one computation ----


def computation_errors(
    comp: Computation, module: HloModule, broken: Set[str] = frozenset()
) -> Iterator[HloVerifierError]:
    """Problems in one computation; `broken` names callees already reported as wrong."""

    def error(message: str, inst: str | None = None) -> HloVerifierError:
        return HloVerifierError(message, comp.name, inst)

    seen: set[str] = set()
    for inst in comp.instructions:
        if inst.name in seen:
            yield error(f"instruction name {inst.name} is used more than once", inst.name)
        seen.add(inst.name)
    if comp.root not in seen:
        yield error(f"root {comp.root} is not an instruction of the computation")
    yield from (error(m, i) for m, i in _parameter_problems(comp))
    cycle = _find_cycle(comp)
    if cycle:
        yield error(
            f"cycle through operands or control-predecessors (each depends on the next): {' -> '.join(cycle)}",
            cycle[0],
        )
    for inst in comp.instructions:
        problem = instruction_problem(inst, comp, module, broken)
        if problem:
            yield error(problem, inst.name)


def _parameter_problems(comp: Computation) -> Iterator[tuple[str, str | None]]:
    numbers: dict[int, str] = {}
    for inst in comp.instructions:
        if inst.opcode != "parameter":
            continue
        n = inst.parameter_number
        if not isinstance(n, int) or n < 0:
            yield f"parameter number {n!r} is not a non-negative integer", inst.name
        elif n in numbers:
            yield f"parameter number {n} is used by both {numbers[n]} and {inst.name}", inst.name
        else:
            numbers[n] = inst.name
    missing = sorted(set(range(len(numbers))) - set(numbers))
    if missing:
        yield (
            f"parameter numbers {sorted(numbers)} are not 0..{len(numbers) - 1} (missing {missing})",
            None,
        )


def _find_cycle(comp: Computation) -> list[str] | None:
    """A cycle through operands and control-predecessors, as a list of names, or None."""
    by_name = comp.by_name
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    for start in comp.instructions:
        if start.name in state:
            continue
        state[start.name] = 1
        stack = [(start.name, iter(_deps(start)))]
        while stack:
            name, deps = stack[-1]
            for dep in deps:
                if dep not in by_name or state.get(dep) == 2:
                    continue
                if state.get(dep) == 1:
                    path = [n for n, _ in stack]
                    return path[path.index(dep) :] + [dep]
                state[dep] = 1
                stack.append((dep, iter(_deps(by_name[dep]))))
                break
            else:
                state[name] = 2
                stack.pop()
    return None


def _deps(inst: Instruction) -> tuple[str, ...]:
    return inst.operands + inst.control_predecessors


# ---- one instruction ----


def instruction_problem(
    inst: Instruction, comp: Computation, module: HloModule, broken: Set[str] = frozenset()
) -> str | None:
    """What is wrong with `inst` in `comp`, or None."""
    problem = _structure_problem(inst, comp, module)
    if problem or any(c in broken for c in inst.called_computations()):
        return problem
    if inst.opcode == "constant":
        problem = _literal_problem(inst.literal, inst.shape)
        if problem:
            return problem
    return _shape_problem(inst, comp, module)


def _structure_problem(inst: Instruction, comp: Computation, module: HloModule) -> str | None:
    info = OPCODES.get(inst.opcode)
    if info is None:
        return f"unknown opcode {inst.opcode}"
    n = len(inst.operands)
    if info.arity is not None and n != info.arity:
        return f"{inst.opcode} takes {info.arity} operand{'s' * (info.arity != 1)}, got {n}"
    rule = _COUNT_RULES.get(inst.opcode)
    if rule and not rule[0](n):
        return f"{inst.opcode} takes {rule[1]} operands, got {n}"
    for name in _deps(inst):
        if name not in comp:
            return f"operand {name} does not exist in computation {comp.name}"
    for name in inst.called_computations():
        if not module.has_computation(name):
            return f"called computation {name} does not exist"
    return _attribute_problem(inst)


def _attribute_problem(inst: Instruction) -> str | None:
    if inst.opcode == "fusion" and inst.attr("kind") not in FUSION_KINDS:
        return f"fusion kind {inst.attr('kind')} is not one of {', '.join(FUSION_KINDS)}"
    if inst.opcode == "compare" and inst.attr("direction") not in COMPARISON_DIRECTIONS:
        return f"compare direction {inst.attr('direction')} is not one of {', '.join(COMPARISON_DIRECTIONS)}"
    if inst.opcode == "parameter" and inst.operands:
        return "a parameter takes no operands"
    return None


def _literal_problem(literal: Literal | None, shape: Shape) -> str | None:
    """A constant's value must have its declared shape and element type."""
    if literal is None:
        return "constant has no value"
    if literal.elided:
        return None
    if isinstance(shape, TupleShape):
        values = literal.value if isinstance(literal.value, tuple) else ()
        if len(values) != len(shape.elements):
            return f"constant value does not match the tuple shape {fmt(shape)}"
        return next(
            filter(None, (_literal_problem(v, s) for v, s in zip(values, shape.elements))), None
        )
    value = literal.value
    if not isinstance(shape, ArrayShape) or not isinstance(value, np.ndarray):
        return f"constant value does not match the shape {fmt(shape)}"
    if value.shape != shape.dims or value.dtype != shape.numpy_dtype:
        return f"constant value is {value.dtype}{list(value.shape)}, but the shape is {fmt(shape)}"
    return None


# A shape check depends only on the opcode, the declared shape, the attributes, the operand
# shapes and the called computations. Passes rebuild instructions (new names, renamed
# operands) far more often than they change those, so remembering which combinations were
# valid keeps verify-after-every-pass cheap. Bounded: cleared when it grows too large.
_SHAPE_OK: dict[tuple, bool] = {}
_SHAPE_OK_LIMIT = 200_000


def _shape_key(inst: Instruction, operand_shapes: list[Shape], module: HloModule) -> tuple | None:
    try:
        # Inference reads only a callee's signature; keyed by content, not id(), so a freed
        # computation's id reused by a different one cannot pass as checked.
        callees = tuple(_signature(module.computation(c)) for c in inst.called_computations())
        key = (inst.opcode, inst.shape, tuple(inst.attrs.items()), tuple(operand_shapes), callees)
        hash(key)
        return key
    except (TypeError, AttributeError, KeyError):
        return None  # unhashable attributes or a dict of computations: just check


def _signature(comp: Computation) -> tuple:
    return comp.parameter_shapes, comp.result_shape


def forget_checked_shapes() -> None:
    """Empty the cache of shape checks that passed (verify's work is then a cold run's)."""
    _SHAPE_OK.clear()


def _shape_problem(inst: Instruction, comp: Computation, module: HloModule) -> str | None:
    operand_shapes = [comp.by_name[o].shape for o in inst.operands]
    key = _shape_key(inst, operand_shapes, module) if inst.opcode != "constant" else None
    if key is not None and key in _SHAPE_OK:
        return None
    problem = _infer_problem(inst, operand_shapes, module)
    if problem is None and key is not None:
        if len(_SHAPE_OK) > _SHAPE_OK_LIMIT:
            _SHAPE_OK.clear()
        _SHAPE_OK[key] = True
    return problem


def _infer_problem(inst: Instruction, operand_shapes: list[Shape], module: HloModule) -> str | None:
    try:
        inferred = infer_shape(inst.opcode, operand_shapes, inst.attrs, module, declared=inst.shape)
    except ShapeRuleError as e:
        return str(e)
    except (TypeError, ValueError, AttributeError) as e:
        # An attribute of the wrong kind (e.g. an int where a list belongs).
        return f"malformed attributes for {inst.opcode}: {e}"
    if not compatible(inferred, inst.shape):
        return f"declared shape {fmt(inst.shape)} but inferred {fmt(inferred)}"
    return None
