"""The HLO printer: modules in XLA's own text syntax.

Output looks like XLA's dumps after optimization (`%` names, computation signatures,
`metadata={...}`), so it reads like XLA's text and XLA's parser accepts it. Operand shapes
are optional (`operand_shapes=True` prints them as XLA's default printer does). The printer
is deterministic: the same module always prints the same text, which golden tests rely on.
"""

from __future__ import annotations

from .attributes import (
    Literal,
    Raw,
    format_literal,
    format_padding,
    format_slice,
    format_window,
    quote,
)
from .computation import Computation
from .instruction import Instruction
from .module import HloModule, StackFrames
from .opcodes import COMPUTATION_ATTRS

_QUOTED = {"custom_call_target", "execution_thread"}
_TRAILING = ("backend_config",)  # XLA prints these after metadata


def format_value(key: str, value) -> str:
    """One attribute value in XLA syntax, chosen by the attribute's key and value type."""
    arity = COMPUTATION_ATTRS.get(key)
    if arity == 1:
        return "%" + value
    if arity == "list" or key == "control-predecessors":
        return "{" + ", ".join("%" + v for v in value) + "}"
    if key == "slice":
        return format_slice(value)
    if key == "padding":
        return format_padding(value)
    if key == "window":
        return format_window(value)
    if isinstance(value, Raw):
        return value.text
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, tuple):
        return "{" + ",".join(map(str, value)) + "}"
    if key in _QUOTED:
        return quote(value)
    return str(value)


def _operand_text(inst: Instruction, shapes: dict | None) -> str:
    if inst.opcode == "parameter":
        return str(inst.parameter_number)
    if inst.opcode == "constant":
        return format_literal(inst.literal) if inst.literal is not None else ""
    if shapes is None:
        return ", ".join("%" + o for o in inst.operands)
    return ", ".join(f"{shapes[o]} %{o}" if o in shapes else "%" + o for o in inst.operands)


def format_instruction(inst: Instruction, *, is_root: bool = False, shapes: dict | None = None,
                       metadata: bool = True) -> str:
    """`[ROOT ]%name = shape opcode(operands), attr=value, ...`."""
    parts = [f"{'ROOT ' if is_root else ''}%{inst.name} = {inst.shape} {inst.opcode}"
             f"({_operand_text(inst, shapes)})"]
    trailing = []
    for key, value in inst.attrs.items():
        text = f"{key}={format_value(key, value)}"
        (trailing if key in _TRAILING else parts).append(text)
    if metadata and inst.metadata is not None and inst.metadata.fields:
        parts.append(f"metadata={inst.metadata}")
    return ", ".join(parts + trailing)


def format_computation(comp: Computation, *, is_entry: bool = False, operand_shapes: bool = False,
                       metadata: bool = True) -> str:
    params = ", ".join(f"{p.name}: {p.shape}" for p in comp.parameters)
    head = f"{'ENTRY ' if is_entry else ''}%{comp.name} ({params}) -> {comp.result_shape} {{"
    shapes = {i.name: i.shape for i in comp} if operand_shapes else None
    body = [
        "  " + format_instruction(i, is_root=i.name == comp.root, shapes=shapes, metadata=metadata)
        for i in comp
    ]
    tail = "}" if comp.execution_thread is None else f"}}, execution_thread={quote(comp.execution_thread)}"
    return "\n".join([head, *body, tail])


def _format_stack_frames(sf: StackFrames) -> str:
    def fields(d: dict) -> str:
        return "{" + " ".join(f"{k}={v}" for k, v in d.items()) + "}"

    out = []
    if sf.file_names:
        out += ["FileNames", *(f"{k} {quote(v)}" for k, v in sf.file_names.items()), ""]
    if sf.function_names:
        out += ["FunctionNames", *(f"{k} {quote(v)}" for k, v in sf.function_names.items()), ""]
    if sf.locations:
        out += ["FileLocations", *(f"{k} {fields(v)}" for k, v in sf.locations.items()), ""]
    if sf.frames:
        out += ["StackFrames"]
        out += [f"{k} {{file_location_id={a} parent_frame_id={b}}}" for k, (a, b) in sf.frames.items()]
        out += [""]
    return "\n".join(out)


def callee_order(module: HloModule) -> list[Computation]:
    """Computations with every callee before its callers (XLA's parser needs that order)."""
    done: dict[str, bool] = {}
    order: list[Computation] = []

    def visit(comp: Computation) -> None:
        stack = [(comp, iter(_callees(comp)))]
        done[comp.name] = False
        while stack:
            current, callees = stack[-1]
            for name in callees:
                if name not in done and module.has_computation(name):
                    done[name] = False
                    callee = module.computation(name)
                    stack.append((callee, iter(_callees(callee))))
                    break
            else:
                stack.pop()
                done[current.name] = True
                order.append(current)

    for comp in module.computations:
        if comp.name not in done:
            visit(comp)
    return order


def _callees(comp: Computation) -> list[str]:
    names: list[str] = []
    for inst in comp:
        names.extend(inst.called_computations())
    return names


def format_module(module: HloModule, *, operand_shapes: bool = False, metadata: bool = True) -> str:
    """The whole module: header, stack-frame tables, then computations (callees first)."""
    header = f"HloModule {module.name}"
    attrs = dict(module.attrs)
    attrs.setdefault("entry_computation_layout", module.entry_layout)
    for key, value in attrs.items():
        header += f", {key}={format_value(key, value)}"
    chunks = [header, ""]
    if module.stack_frames is not None and metadata:
        chunks += [_format_stack_frames(module.stack_frames)]
    for comp in callee_order(module):
        chunks.append(format_computation(comp, is_entry=comp.name == module.entry,
                                         operand_shapes=operand_shapes, metadata=metadata))
        chunks.append("")
    return "\n".join(chunks)


__all__ = ["format_module", "format_computation", "format_instruction", "format_value", "Literal"]
