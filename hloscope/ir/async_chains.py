"""What XLA's parser checks of an async chain (async-start -> async-update* -> async-done).

    %s = ((f32[10]), f32[20], s32[]) custom-call-start(%p), custom_call_target="foo"
    %u = ((f32[10]), f32[20], s32[]) custom-call-update(%s)
    %d = f32[20] custom-call-done(%u)

An async-start declares ((its operands), its result, state...) and is the only caller of the
computation it wraps. An update or done continues one async op (a start or an update), and
what it says of the chain must agree with the start: the computation (`calls=`), the wrapped
opcode (`custom-call-done` continues a custom-call) and the execution thread (main unless the
start names another).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from .attributes import Raw
from .computation import Computation
from .instruction import Instruction
from .shape import TupleShape

# custom-call-start / -update / -done are kept as written: an async custom-call chain
_STARTS = ("async-start", "custom-call-start")
_UPDATES = ("async-update", "custom-call-update")
_CONTINUATIONS = (*_UPDATES, "async-done", "custom-call-done")


def start_form_problem(inst: Instruction) -> str | None:
    """An async-start's shape must be ((operand shapes), result, state...)."""
    shape = inst.shape
    if isinstance(shape, TupleShape) and len(shape.elements) >= 2 and isinstance(shape.elements[0], TupleShape):
        return None
    return (f"async-start {inst.name} must declare ((operand shapes), result, state...), not {shape} "
            "(XLA: 'AsyncStart expects the op shape to be in the form of ((async-operands), async-outputs, state)')")


def async_chain_problems(instructions: list[Instruction], computations: Mapping[str, Computation],
                         wrapped_opcodes: Mapping[str, str]) -> Iterator[tuple[str, str]]:
    """(instruction, problem) for each async op of one computation that breaks its chain.
    `wrapped_opcodes`: for `X-update` / `X-done` written in XLA's shorthand, X."""
    by_name = {i.name: i for i in instructions}
    callers: dict[str, str] = {}
    for inst in instructions:
        if inst.opcode in _STARTS:
            if (problem := start_form_problem(inst)) is not None:
                yield inst.name, problem
            callee = inst.attrs.get("calls")
            if isinstance(callee, str) and callee in callers:
                yield inst.name, (f"computation {callee} is called by more than one async op "
                                  f"({callers[callee]} and {inst.name})")
            elif isinstance(callee, str):
                callers[callee] = inst.name
        elif inst.opcode in _CONTINUATIONS:
            wrapped = wrapped_opcodes.get(inst.name, "custom-call" if inst.opcode.startswith("custom-call") else None)
            yield from _continuation_problems(inst, by_name, computations, wrapped)


def _continuation_problems(inst: Instruction, by_name: Mapping[str, Instruction],
                           computations: Mapping[str, Computation], wrapped: str | None) -> Iterator[tuple[str, str]]:
    operand = by_name.get(inst.operands[0]) if len(inst.operands) == 1 else None
    if operand is None or operand.opcode not in (*_STARTS, *_UPDATES):
        what = f"{operand.name}, a {operand.opcode}" if operand is not None else f"{len(inst.operands)} operands"
        yield inst.name, (f"{inst.opcode} continues one async op (an async-start or async-update), not {what} "
                          "(XLA: 'AsyncUpdate and AsyncDone expect a single async op as their operand')")
        return
    start = _chain_start(operand, by_name)
    callee = start.attrs.get("calls")
    own = inst.attrs.get("calls", callee)
    if own != callee:  # (the start's own name for it: async-start calls=, or none for a custom-call chain)
        yield inst.name, f"{inst.opcode} {inst.name} calls {own}, but {start.name}, the async-start it continues, calls {callee}"
    comp = computations.get(callee) if isinstance(callee, str) else None
    actual = "custom-call" if start.opcode == "custom-call-start" else comp[comp.root].opcode if comp else None
    if wrapped is not None and actual is not None and actual != wrapped:
        phase = inst.opcode.rsplit("-", 1)[1]
        yield inst.name, f"{wrapped}-{phase} continues {start.name}, which wraps {actual}, not {wrapped}"
    thread, start_thread = _thread(inst), _thread(start) or "main"
    if thread is not None and thread != start_thread:
        yield inst.name, (f"{inst.opcode} {inst.name} runs on execution thread {thread!r}, but its async-start "
                          f"{start.name} on {start_thread!r}")


def _chain_start(inst: Instruction, by_name: Mapping[str, Instruction]) -> Instruction:
    seen = set()
    while inst.opcode in _UPDATES and inst.operands and inst.name not in seen:
        seen.add(inst.name)
        previous = by_name.get(inst.operands[0])
        if previous is None or previous.opcode not in (*_STARTS, *_UPDATES):
            break
        inst = previous
    return inst


def _thread(inst: Instruction) -> str | None:
    value = inst.attrs.get("async_execution_thread")
    if value is None:
        return None
    return (value.text if isinstance(value, Raw) else str(value)).strip('"')
