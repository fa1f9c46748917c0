"""Donated parameters: an output written into a parameter's buffer takes no arena bytes
(XLA's `input_output_alias`, HloInputOutputAliasConfig, which BufferAssignment honours by
giving the output the parameter's allocation).

    HloModule step, input_output_alias={ {0}: (0, {}, may-alias) }
    ENTRY { p = f32[1024] parameter(0)  ...  ROOT t = (f32[1024], ...) tuple(new_p, ...) }

`new_p` is written over the caller's `p`. That is only safe once nothing reads `p` any more:
the output's buffer must start after the parameter's last reader, or at it when that reader
is the output's own instruction and reads `p` element for element (the in-place rule of
values.py). Otherwise the output keeps its own arena bytes (may-alias allows either; XLA
would add a copy). The parameter stays live for the whole call either way: it is the caller's
array, and from the output's first write on it holds the output.
"""

from __future__ import annotations

from ..ir.aliasing import InputOutputAlias
from ..ir.computation import Computation
from ..ir.module import HloModule
from .liveness import Storage
from .values import may_reuse_operand


def output_producers(comp: Computation) -> dict[tuple[int, ...], str]:
    """{output index: the instruction that makes it} for the flat cases: an array root (index
    `()`), or a root `tuple` of arrays (index `(k,)`)."""
    root = comp.root_instruction
    if root.opcode != "tuple":
        return {(): root.name}
    return {(k,): o for k, o in enumerate(root.operands)}


def donated_outputs(comp: Computation, order: list[str], storages: list[Storage], where: dict[str, list[int]],
                    module: HloModule) -> dict[int, str]:
    """{storage id of an output: the parameter whose buffer it is written into}, for the
    aliases of `module` that are safe (see the module docstring)."""
    config = module.attrs.get("input_output_alias")
    if not isinstance(config, InputOutputAlias):
        return {}
    params = {p.parameter_number: p.name for p in comp.parameters}
    by_id = {s.id: s for s in storages}  # analyze drops the storages merged away: ids are not positions
    last_read = _last_reads(comp, order, where)
    producers = output_producers(comp)
    donated: dict[int, str] = {}
    donors: set[str] = set()
    for alias in config.aliases:
        param, producer = params.get(alias.parameter), producers.get(alias.output_index)
        if alias.parameter_index or param is None or producer is None or param in donors:
            continue
        mine, theirs = where.get(producer, []), where.get(param, [])
        if len(mine) != 1 or len(theirs) != 1 or mine[0] in donated:
            continue
        out, p = by_id[mine[0]], by_id[theirs[0]]
        if out.kind == "output" and out.size == p.size and _free_by(comp, order, out, p.id, last_read, where, module):
            donated[out.id] = param
            donors.add(param)
    return donated


def _last_reads(comp: Computation, order: list[str], where: dict[str, list[int]]) -> dict[int, int]:
    """{storage id: the last position that reads it}, in one pass."""
    last: dict[int, int] = {}
    for pos, name in enumerate(order):
        for o in comp[name].operands:
            for s in where[o]:
                last[s] = pos
    return last


def _free_by(comp: Computation, order: list[str], out: Storage, param: int, last_read: dict[int, int],
             where: dict[str, list[int]], module: HloModule) -> bool:
    """Whether nothing reads the parameter's storage after `out` starts (its first value may
    read it, in place)."""
    last = last_read.get(param, -1)
    if last != out.start:
        return last < out.start
    inst = comp[order[out.start]]
    reads = [i for i, o in enumerate(inst.operands) if param in where[o]]
    return inst.name == out.values[0] and all(may_reuse_operand(inst, i, comp, module) for i in reads)
