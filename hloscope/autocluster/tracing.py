"""Tracing for autojit: the function traced as hloscope.jit traces it, except that a call the
compiler cannot take becomes a host node (host_calls.py); the result is a ProgramGraph.

The traced module holds every HLO instruction, with each host call's outputs as placeholder
parameters of the ENTRY. The graph lists, in program order, the arguments, the instructions
that the function's results or a host call need (what a failed lowering left behind is
dropped), and the host calls, at the place each was made. Every host call is kept, even one
whose result is unused: a callback may be there for what it does (print, log).
"""

from __future__ import annotations

import os
from typing import Any, Callable, Sequence

from ..frontend.abstract import ShapedArray
from ..frontend.registry import call_fallback
from ..frontend.source import definition_of
from ..frontend.pytree import TreeDef, flatten
from ..frontend.staging import as_output
from ..frontend.trace import Frame, Lowering, metadata_for
from ..frontend.tracer import Tracer
from ..ir.instruction import Instruction
from .graph import ProgramGraph, ProgramNode, ProgramValue, array_value
from .host_calls import HostCalls, HostNode, HostOnlyArray, describe, placeholder, recording


def trace_program(fn: Callable, fn_name: str, avals: Sequence[ShapedArray], names: Sequence[str],
                  build_args: Callable[[list[Tracer]], Sequence[Any]]) -> ProgramGraph:
    """Trace `fn` on parameters of `avals` (see the module docstring); `build_args(params)` gives
    its (positional arguments, keyword arguments)."""
    lowering = Lowering(fn_name)
    entry = Frame(lowering, lowering.computation_name("main"))
    where = definition_of(fn)
    entry.cb.metadata = metadata_for(lowering.scope, "arguments", where)
    calls = HostCalls(entry)

    def run(a, k):
        out = fn(*a, **k)
        entry.cb.metadata = metadata_for(lowering.scope, "output", where)
        return out

    with recording(calls), call_fallback(calls):
        outs, out_tree = _stage(entry, run, avals, names, build_args)
    live = [*outs, *[entry.lift(t) for t in _operand_tracers(entry, calls)]]
    module = lowering.mb.build(entry.finish(live), verify=False)
    nodes, values = _nodes(entry, module.entry_computation.instructions, calls.nodes, outs, len(live) > 1)
    return ProgramGraph(tuple(nodes), values, tuple(t.inst.name for t in outs), out_tree, module)


def _stage(entry: Frame, fn: Callable, avals: Sequence[ShapedArray], names: Sequence[str],
           build_args: Callable[[list[Tracer]], Sequence[Any]]) -> tuple[list[Tracer], TreeDef]:
    """frontend.staging.stage, with complex arguments as values only the host holds."""
    entry.params = [placeholder(entry, n, a) for a, n in zip(avals, names)]
    with entry.active():
        leaves, tree = flatten(fn(*build_args(entry.params)))
        outs = [as_output(x, f"output {i} of the function") for i, x in enumerate(leaves)]
    return outs, tree


def _operand_tracers(entry: Frame, calls: HostCalls) -> list[Tracer]:
    by_name = {i.name: i for i in entry.cb.instructions}
    return [entry.wrap(by_name[v]) for h in calls.nodes for v in h.inputs
            if by_name[v].shape.is_array and not _is_placeholder(v, calls)]


def _is_placeholder(name: str, calls: HostCalls) -> bool:
    return any(name in h.outputs for h in calls.nodes)


def _nodes(entry: Frame, instructions: Sequence[Instruction], hosts: list[HostNode], outs: list[Tracer],
           synthetic_root: bool) -> tuple[list[ProgramNode], dict[str, ProgramValue]]:
    """The live nodes in program order, and every value they make."""
    by_name = {i.name: i for i in instructions}
    made_by = {v: h for h in hosts for v in h.outputs}
    args = {p.inst.name for p in entry.params}
    avals = {p.inst.name: p.aval for p in entry.params}
    live = _live(by_name, made_by, [t.inst.name for t in outs], hosts)
    nodes: list[ProgramNode] = []
    values: dict[str, ProgramValue] = {}
    placed: set[str] = set()
    body = instructions[:-1] if synthetic_root else instructions
    for inst in body:
        host = made_by.get(inst.name)
        if host is not None and host.name not in placed:
            placed.add(host.name)
            nodes.append(_host_node(host))
            values.update(_host_values(host))
        elif inst.name in live and host is None:
            nodes.append(_op_node(inst, inst.name in args))
            values[inst.name] = _value_of(inst, avals.get(inst.name))
    nodes += [_host_node(h) for h in hosts if h.name not in placed]  # calls that return nothing
    return nodes, values


def _live(by_name: dict[str, Instruction], made_by: dict[str, HostNode], outputs: list[str],
          hosts: list[HostNode]) -> set[str]:
    """Instructions and host outputs the results or any host call depend on."""
    todo = [*outputs, *[v for h in hosts for v in h.inputs]]
    live: set[str] = set()
    while todo:
        name = todo.pop()
        if name in live:
            continue
        live.add(name)
        host = made_by.get(name)
        todo.extend(host.inputs if host is not None else by_name[name].operands)
    return live


def _op_node(inst: Instruction, is_arg: bool) -> ProgramNode:
    if is_arg:
        return ProgramNode(inst.name, "arg", "parameter", (), (inst.name,))
    md = inst.metadata
    source = f"{os.path.basename(md.source_file)}:{md.source_line}" if md and md.source_file else ""
    return ProgramNode(inst.name, "op", inst.opcode, inst.operands, (inst.name,), source=source)


def _host_node(h: HostNode) -> ProgramNode:
    source = f"{os.path.basename(h.source.file)}:{h.source.line}" if h.source else ""
    return ProgramNode(h.name, "host", describe(h.call.fn), tuple(h.inputs), tuple(h.outputs), host=h.call,
                       source=source)


def _host_values(h: HostNode) -> dict[str, ProgramValue]:
    return {v: array_value(v, a.shape, a.dtype, isinstance(a, HostOnlyArray)) for v, a in zip(h.outputs, h.avals)}


def _value_of(inst: Instruction, aval: ShapedArray | None = None) -> ProgramValue:
    if isinstance(aval, HostOnlyArray):  # a complex argument: its parameter is a stand-in
        return array_value(inst.name, aval.shape, aval.dtype, host_only=True)
    if not inst.shape.is_array:
        return ProgramValue(inst.name, (), "tuple")
    shape = inst.array_shape
    return array_value(inst.name, shape.dims, shape.numpy_dtype)
