"""spmd-partitioner: one program over many devices, written as the program each device runs
(XLA's SPMD partitioner, GSPMD; xla/service/spmd/spmd_partitioner.cc), with the sharding of
every value and the reason for every collective in the log.

The input is a module whose parameters (and result) carry `sharding={...}` (what
`jax.jit(f, in_shardings=...)` lowers to). The pass walks the ENTRY once, in order, and for
each instruction decides two things, as the textbook explanation of GSPMD goes:

1. **Propagation: the sharding of its result**, from its operands'. Elementwise ops keep their
   operands' sharding; a broadcast, transpose or reshape moves it to the dimensions it maps
   to; a dot takes its batch and free dimensions' tiles from its operands; a reduce drops the
   reduced dimensions. Constants are replicated.
2. **Partitioning: the local instruction each device runs**, on its tile, and the collectives
   that make the local results add up to the global one:
   - a dot whose contracted dimension is split the same way on both sides gives each device a
     partial sum over its slice: an **all-reduce** over the devices holding the other slices;
   - a reduce over a split dimension is the same: a local reduce, then an all-reduce;
   - an embedding lookup (gather) keeps its ids' split batch and its table's split hidden
     dimension, with no communication; a table split along the rows the ids pick is gathered;
   - operands split differently are made alike first: a replicated operand is **sliced** to
     the tile (a dynamic-slice at the device's offset, no communication); a split one that
     must be whole is **all-gathered**;
   - the result is resharded to the sharding the module's output asks for.

Only the ENTRY is partitioned; the computations it calls (reducers) are scalar and run as
they are. What it does not partition (a dimension split unevenly, control flow, sort) is
named; a reshape that moves a split dimension gathers it first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

import numpy as np

from ..errors import NotSupportedError
from ..ir import parse_hlo
from ..ir.custom_calls import is_sharding_annotation
from ..ir.instruction import Instruction
from ..ir.module import HloModule
from ..ir.opcodes import OPCODES
from ..ir.printer import format_computation, format_value
from ..ir.shape import ArrayShape, Shape, TupleShape
from ..passes.pipeline import HloPass
from ..passes.record import DecisionLog
from .sharding import Sharding, device_count_of, parse_sharding

ValueSharding = Union[Sharding, tuple]  # a tuple's: one per element


@dataclass
class Local:
    """A value on each device: its local instruction's name, global shape and sharding."""

    name: str
    shape: Shape
    sharding: ValueSharding


def _array(shape) -> ArrayShape:
    assert isinstance(shape, ArrayShape), "the partitioner handles arrays here"
    return shape


def _text(dtype: str, dims) -> str:
    return f"{dtype}[{','.join(map(str, dims))}]"


class SpmdPartitioner(HloPass):
    """Turns a module annotated with shardings into the program one device of the mesh runs:
    local shapes, and all-reduce, all-gather or a slice where the tiles require one, each
    named with its reason."""

    name = "spmd-partitioner"

    def __init__(self, devices: int | None = None):
        self.devices = devices

    def run(self, module: HloModule, log: DecisionLog) -> HloModule:
        devices = self.devices or _devices_named(module)
        if devices <= 1:
            return module
        writer = _Writer(module, devices, log)
        return writer.partition()


def _devices_named(module: HloModule) -> int:
    counts = {device_count_of(str(i.attrs["sharding"])) for _, i in module.all_instructions() if "sharding" in i.attrs}
    return max(counts, default=1)


class _Writer:
    def __init__(self, module: HloModule, devices: int, log: DecisionLog):
        self.module, self.devices, self.log = module, devices, log
        self.lines: list[str] = []
        self.values: dict[str, Local] = {}
        self.count = 0
        self._partition_id: str | None = None
        self.added: dict[str, str] = {}  # computations the partitioner adds (an all-reduce's add)

    # ---- writing ----
    def emit(self, opcode: str, dtype: str, dims, operands: list[str], attrs: list[str] | tuple[str, ...] = (),
             hint: str = "",
             literal: str | None = None, shape_text: str | None = None) -> str:
        self.count += 1
        name = f"{hint or opcode}.spmd{self.count}"
        args = literal if literal is not None else ", ".join(f"%{o}" for o in operands)
        shape = shape_text or _text(dtype, dims)
        self.lines.append(", ".join([f"%{name} = {shape} {opcode}({args})", *[a for a in attrs if a]]))
        return name

    def partition_id(self) -> str:
        if self._partition_id is None:
            self._partition_id = self.emit("partition-id", "u32", (), [], hint="partition")
        return self._partition_id

    # ---- the module ----
    def partition(self) -> HloModule:
        entry = self.module.entry_computation
        for inst in entry.post_order():
            self.values[inst.name] = self.instruction(inst)
        root = self.values[entry.root]
        wanted = entry.root_instruction.attrs.get("sharding")
        if wanted is not None:
            root = self.reshard_value(root, self.sharding_of(str(wanted), entry.root_instruction.shape), "the output")
        callees = [format_computation(c) for c in self.module.computations if c.name != entry.name]
        callees += list(self.added.values())
        params = sorted((i for i in entry.instructions if i.opcode == "parameter"), key=lambda i: i.parameter_number or 0)
        lines = self.lines[:]
        root_line = next(k for k, line in enumerate(lines) if line.startswith(f"%{root.name} = "))
        lines[root_line] = "ROOT " + lines[root_line]
        head = ", ".join(f"{p.name}: {self.local_shape_text(self.values[p.name])}" for p in params)
        text = (f"HloModule {self.module.name}, num_partitions={self.devices}\n\n" + "\n\n".join(callees)
                + f"\n\nENTRY %{entry.name}.spmd ({head}) -> {self.local_shape_text(root)} {{\n  "
                + "\n  ".join(lines) + "\n}\n")
        return parse_hlo(text)

    def local_shape_text(self, value: Local) -> str:
        if isinstance(value.shape, TupleShape):
            assert isinstance(value.sharding, tuple)
            return "(" + ", ".join(self.local_shape_text(Local("", s, sh))
                                   for s, sh in zip(value.shape.elements, value.sharding)) + ")"
        assert isinstance(value.sharding, Sharding)
        shape = _array(value.shape)
        return _text(shape.dtype, value.sharding.local_dims(shape.dims))

    def sharding_of(self, text: str, shape) -> ValueSharding:
        body = text.strip()
        if isinstance(shape, TupleShape):
            inner = body[1:-1].strip() if body.startswith("{{") else body
            parts = _split_top(inner) if body.startswith("{{") else [body] * len(shape.elements)
            return tuple(self.sharding_of(p, s) for p, s in zip(parts, shape.elements))
        return parse_sharding(body, _array(shape).dims, self.devices)

    # ---- one instruction ----
    def instruction(self, inst: Instruction) -> Local:
        op = inst.opcode
        if op == "parameter":
            text = inst.attrs.get("sharding")
            sharding = self.sharding_of(str(text), inst.shape) if text is not None else self.replicated(inst.shape)
            name = self.emit("parameter", "", (), [], hint=inst.name, literal=str(inst.parameter_number),
                             shape_text=self.local_shape_text(Local("", inst.shape, sharding)))
            if text is not None:
                self.log.add("sharding", inst.name, f"given: {_describe(sharding)}")
            return Local(name, inst.shape, sharding)
        operands = [self.values[o] for o in inst.operands]
        if op in ("constant", "iota", "partition-id", "replica-id") or (not operands and op != "parameter"):
            return self.copy_as_is(inst, operands, self.replicated(inst.shape))
        if op == "tuple":
            name = self.emit("tuple", "", (), [v.name for v in operands], hint=inst.name,
                             shape_text="(" + ", ".join(self.local_shape_text(v) for v in operands) + ")")
            return Local(name, inst.shape, tuple(v.sharding for v in operands))
        if op == "get-tuple-element":
            whole, index = operands[0], int(inst.attr("index"))
            assert isinstance(whole.sharding, tuple)
            sharding = whole.sharding[index]
            element = Local("", _array(inst.shape), sharding)
            name = self.emit("get-tuple-element", "", (), [whole.name], [f"index={index}"], hint=inst.name,
                             shape_text=self.local_shape_text(element))
            return Local(name, inst.shape, sharding)
        if is_sharding_annotation(inst):  # a mark for the partitioner: the value, resharded as it asks
            text = inst.attrs.get("sharding")
            value = operands[0]
            if text is not None:
                value = self.reshard_value(value, self.sharding_of(str(text), inst.shape), f"{inst.name}'s sharding")
            self.log.add("sharding", inst.name, f"custom-call {inst.attr('custom_call_target')}: its operand's")
            return value
        row = OPCODES.get(op)
        if row is not None and row.elementwise:
            return self.elementwise(inst, operands)
        handler = {"broadcast": self.broadcast, "transpose": self.transpose, "reshape": self.reshape,
                   "dot": self.dot, "reduce": self.reduce, "gather": self.gather}.get(op)
        if handler is None:
            raise NotSupportedError(f"not supported by the spmd-partitioner: {op} (instruction {inst.name})")
        return handler(inst, operands)

    def replicated(self, shape) -> ValueSharding:
        if isinstance(shape, TupleShape):
            return tuple(self.replicated(s) for s in shape.elements)
        return Sharding.replicated(len(_array(shape).dims), self.devices)

    def copy_as_is(self, inst: Instruction, operands: list[Local], sharding: ValueSharding) -> Local:
        """An instruction every device runs whole (a constant, a replicated op)."""
        attrs = [f"{k}={format_value(k, v)}" for k, v in inst.attrs.items() if k != "sharding"]
        literal = None
        if inst.opcode == "constant":
            from ..ir.attributes import format_literal

            literal = format_literal(inst.literal) if inst.literal is not None else ""
        shape = inst.shape
        name = self.emit(inst.opcode, "", (), [v.name for v in operands], attrs, hint=inst.name, literal=literal,
                         shape_text=self.local_shape_text(Local("", shape, sharding)))
        return Local(name, shape, sharding)

    def local(self, inst: Instruction, operands: list[Local], sharding: Sharding, attrs: list[str] | None = None
              ) -> Local:
        shape = _array(inst.shape)
        kept = attrs if attrs is not None else [f"{k}={format_value(k, v)}" for k, v in inst.attrs.items()
                                               if k != "sharding"]
        name = self.emit(inst.opcode, shape.dtype, sharding.local_dims(shape.dims), [v.name for v in operands], kept,
                         hint=inst.name)
        return Local(name, shape, sharding)

    # ---- propagation and partitioning, op by op ----
    def elementwise(self, inst: Instruction, operands: list[Local]) -> Local:
        """Elementwise: the operands' tiles line up, or the replicated ones are sliced to the
        most split operand's tiles."""
        arrays = [v for v in operands if isinstance(v.sharding, Sharding)]
        target = max((v.sharding for v in arrays if isinstance(v.sharding, Sharding)),
                     key=lambda s: int(np.prod(s.tiles)), default=self.replicated(inst.shape))
        assert isinstance(target, Sharding)
        aligned = [self.reshard_value(v, target, f"operand {k} of {inst.name}") for k, v in enumerate(operands)]
        if not target.is_replicated:
            self.log.add("sharding", inst.name, f"elementwise: its operands' {target.describe()}")
        return self.local(inst, aligned, target)

    def broadcast(self, inst: Instruction, operands: list[Local]) -> Local:
        """The operand's tiles move to the dimensions it maps to; new dimensions are whole."""
        (x,) = operands
        assert isinstance(x.sharding, Sharding)
        mapping = list(inst.attr("dimensions") or ())
        rank = len(_array(inst.shape).dims)
        tiles = [1] * rank
        for i, d in enumerate(mapping):
            tiles[d] = x.sharding.tiles[i]
        coords = {k: tuple(c[mapping.index(d)] if d in mapping else 0 for d in range(rank))
                  for k, c in enumerate(x.sharding.coords)}
        sharding = Sharding.from_devices(tuple(tiles), coords)
        return self.local(inst, [x], sharding)

    def transpose(self, inst: Instruction, operands: list[Local]) -> Local:
        (x,) = operands
        assert isinstance(x.sharding, Sharding)
        perm = list(inst.attr("dimensions"))
        sharding = Sharding(tuple(x.sharding.tiles[p] for p in perm),
                            tuple(tuple(c[p] for p in perm) for c in x.sharding.coords))
        return self.local(inst, [x], sharding)

    def reshape(self, inst: Instruction, operands: list[Local]) -> Local:
        """A reshape keeps a split dimension only when it only adds or drops size-1 dimensions
        around it; otherwise the operand is gathered whole first."""
        (x,) = operands
        assert isinstance(x.sharding, Sharding)
        before, after = _array(x.shape).dims, _array(inst.shape).dims
        if x.sharding.is_replicated:
            return self.local(inst, [x], self.replicated(inst.shape))  # type: ignore[arg-type]
        kept_before = [d for d in range(len(before)) if before[d] != 1]
        kept_after = [d for d in range(len(after)) if after[d] != 1]
        if [before[d] for d in kept_before] == [after[d] for d in kept_after] and all(
                x.sharding.tiles[d] == 1 for d in range(len(before)) if before[d] == 1):
            tiles = [1] * len(after)
            for b, a in zip(kept_before, kept_after):
                tiles[a] = x.sharding.tiles[b]
            coords = {k: tuple(next((c[b] for b, a2 in zip(kept_before, kept_after) if a2 == a), 0)
                               for a in range(len(after))) for k, c in enumerate(x.sharding.coords)}
            return self.local(inst, [x], Sharding.from_devices(tuple(tiles), coords))
        whole = self.reshard_value(x, x.sharding.without(set(range(len(before)))),
                                   f"{inst.name} (a reshape that moves a split dimension)")
        return self.local(inst, [whole], self.replicated(inst.shape))  # type: ignore[arg-type]

    def dot(self, inst: Instruction, operands: list[Local]) -> Local:
        lhs, rhs = operands
        assert isinstance(lhs.sharding, Sharding) and isinstance(rhs.sharding, Sharding)
        lb, rb, lc, rc = (_dims(inst, key) for key in ("lhs_batch_dims", "rhs_batch_dims", "lhs_contracting_dims",
                                                        "rhs_contracting_dims"))
        lrank, rrank = len(_array(lhs.shape).dims), len(_array(rhs.shape).dims)
        lfree = [d for d in range(lrank) if d not in lb + lc]
        rfree = [d for d in range(rrank) if d not in rb + rc]
        # A side that holds its contracted dimensions whole takes the other side's slices of them
        # (no communication), so that each device sums its slice: partial sums, one all-reduce.
        lhs = self._slice_like(lhs, rhs, lc + lb, rc + rb, inst)
        rhs = self._slice_like(rhs, lhs, rc + rb, lc + lb, inst)
        # The two sides must hold the same slice of each contracted and batch dimension.
        ls, rs = lhs.sharding, rhs.sharding
        assert isinstance(ls, Sharding) and isinstance(rs, Sharding)
        if any(ls.coords[k][a] != rs.coords[k][b] or ls.tiles[a] != rs.tiles[b]
               for k in range(self.devices) for a, b in zip(lc + lb, rc + rb)):
            lhs = self.reshard_value(lhs, ls.without(set(lc + lb)), f"lhs of {inst.name}, whose "
                                     "contracted dimensions the two sides split differently")
            rhs = self.reshard_value(rhs, rs.without(set(rc + rb)), f"rhs of {inst.name}, whose "
                                     "contracted dimensions the two sides split differently")
        out = self._dot_result(lhs, rhs, lb, lfree, rfree)
        if out is None:  # both free sides split over the same devices: no device would hold most tiles
            small, big = sorted((lhs, rhs), key=lambda v: int(np.prod(_array(v.shape).dims)))
            free = lfree if small is lhs else rfree
            gathered = self.reshard_value(small, small.sharding.without(set(free)),  # type: ignore[union-attr]
                                          f"{'lhs' if small is lhs else 'rhs'} of {inst.name}, the smaller side, "
                                          "whose free dimensions are split over the same devices as the other's")
            lhs, rhs = (gathered, big) if small is lhs else (big, gathered)
            out = self._dot_result(lhs, rhs, lb, lfree, rfree)
            assert out is not None
        ls = lhs.sharding
        assert isinstance(ls, Sharding)
        result = self.local(inst, [lhs, rhs], out)
        split = [a for a in lc if ls.tiles[a] > 1]
        if not split:
            self.log.add("sharding", inst.name, f"dot: from its operands, {_describe(out)}")
            return result
        # Each device summed only its slice of the contracted dimension: add the slices up.
        groups = _partial_groups(ls, set(split), out)
        reason = (f"{inst.name} contracts dimension {split} of its lhs, split into {[ls.tiles[a] for a in split]} "
                  f"tiles on both sides: each device holds a partial sum, so all-reduce over {_groups_text(groups)}")
        return self.all_reduce(result, groups, reason)

    def _slice_like(self, value: Local, other: Local, mine: list[int], theirs: list[int], inst: Instruction) -> Local:
        """`value` sliced along `mine` as `other` is split along `theirs`, when `value` holds
        them whole and `other` does not (else `value` unchanged)."""
        vs, os = value.sharding, other.sharding
        assert isinstance(vs, Sharding) and isinstance(os, Sharding)
        if any(vs.tiles[a] > 1 for a in mine) or all(os.tiles[b] == 1 for b in theirs):
            return value
        tiles = list(vs.tiles)
        coords = {k: list(c) for k, c in enumerate(vs.coords)}
        for a, b in zip(mine, theirs):
            tiles[a] = os.tiles[b]
            for k in coords:
                coords[k][a] = os.coords[k][b]
        frozen = {k: tuple(c) for k, c in coords.items()}
        if not _covers(tuple(tiles), frozen):
            return value
        return self.reshard_value(value, Sharding.from_devices(tuple(tiles), frozen),
                                  f"an operand of {inst.name} (to match the other side's slices of the "
                                  "contracted dimensions)")

    def _dot_result(self, lhs: Local, rhs: Local, lb: list[int], lfree: list[int], rfree: list[int]
                    ) -> Sharding | None:
        """The dot's result tiles from its operands' (batch, lhs free, rhs free), or None when
        they would not cover the result (each tile on the same number of devices)."""
        ls, rs = lhs.sharding, rhs.sharding
        assert isinstance(ls, Sharding) and isinstance(rs, Sharding)
        tiles = tuple([ls.tiles[d] for d in lb] + [ls.tiles[d] for d in lfree] + [rs.tiles[d] for d in rfree])
        coords = {k: tuple([ls.coords[k][d] for d in lb] + [ls.coords[k][d] for d in lfree]
                           + [rs.coords[k][d] for d in rfree]) for k in range(self.devices)}
        return Sharding.from_devices(tiles, coords) if _covers(tiles, coords) else None

    def reduce(self, inst: Instruction, operands: list[Local]) -> Local:
        x, init = operands
        assert isinstance(x.sharding, Sharding)
        dims = list(inst.attr("dimensions"))
        kept = [d for d in range(len(_array(x.shape).dims)) if d not in dims]
        out = Sharding(tuple(x.sharding.tiles[d] for d in kept),
                       tuple(tuple(c[d] for d in kept) for c in x.sharding.coords))
        result = self.local(inst, [x, init], out)
        split = [d for d in dims if x.sharding.tiles[d] > 1]
        if not split:
            return result
        groups = _partial_groups(x.sharding, set(split), out)
        reason = (f"{inst.name} reduces dimension {split}, which is split: each device reduced its tile, so "
                  f"all-reduce over {_groups_text(groups)} with {inst.attr('to_apply')}")
        return self.all_reduce(result, groups, reason, reducer=str(inst.attr("to_apply")))

    def gather(self, inst: Instruction, operands: list[Local]) -> Local:
        """An embedding lookup, `table[ids]`: the ids' split batch dimensions and the table's
        split slice dimensions (a row's hidden units) carry over to the result, with no
        communication. A table split along the rows the ids index is gathered whole first."""
        table, ids = operands
        assert isinstance(table.sharding, Sharding) and isinstance(ids.sharding, Sharding)
        offset_dims, collapsed = _dims(inst, "offset_dims"), _dims(inst, "collapsed_slice_dims")
        indexed, vector = _dims(inst, "start_index_map"), int(inst.attr("index_vector_dim") or 0)
        sizes = _dims(inst, "slice_sizes")
        table_dims = _array(table.shape).dims
        whole_slices = [d for d in range(len(table_dims)) if d not in indexed and sizes[d] == table_dims[d]]
        if any(table.sharding.tiles[d] > 1 for d in range(len(table_dims)) if d not in whole_slices):
            table = self.reshard_value(table, table.sharding.without(set(range(len(table_dims))) - set(whole_slices)),
                                       f"the table of {inst.name}, split along the rows its ids pick")
        ids_rank = len(_array(ids.shape).dims)
        if vector < ids_rank and ids.sharding.tiles[vector] > 1:
            ids = self.reshard_value(ids, ids.sharding.without({vector}), f"the ids of {inst.name} (each id whole)")
        ts, js = table.sharding, ids.sharding
        assert isinstance(ts, Sharding) and isinstance(js, Sharding)
        batch = [d for d in range(ids_rank) if d != vector]  # the ids' dimensions, in the result's order
        kept = [d for d in range(len(table_dims)) if d not in collapsed]  # the table's, in offset_dims' order
        rank = len(_array(inst.shape).dims)
        batch_out = [d for d in range(rank) if d not in offset_dims]
        tiles, coords = [1] * rank, {k: [0] * rank for k in range(self.devices)}
        for out_dim, d in zip(batch_out, batch):
            tiles[out_dim] = js.tiles[d]
            for k in coords:
                coords[k][out_dim] = js.coords[k][d]
        for out_dim, d in zip(offset_dims, kept):
            tiles[out_dim] = ts.tiles[d]
            for k in coords:
                coords[k][out_dim] = ts.coords[k][d]
        frozen = {k: tuple(c) for k, c in coords.items()}
        if not _covers(tuple(tiles), frozen):  # ids and table split over the same devices
            table = self.reshard_value(table, ts.without(set(range(len(table_dims)))),
                                       f"the table of {inst.name}, split over the same devices as its ids")
            return self.gather(inst, [table, ids])
        out = Sharding.from_devices(tuple(tiles), frozen)
        local_sizes = [sizes[d] // ts.tiles[d] if d in whole_slices else sizes[d] for d in range(len(table_dims))]
        attrs = [f"{k}={format_value(k, v)}" for k, v in inst.attrs.items() if k not in ("sharding", "slice_sizes")]
        attrs.append("slice_sizes={" + ",".join(map(str, local_sizes)) + "}")
        self.log.add("sharding", inst.name, f"gather: from its ids and its table, {_describe(out)}")
        return self.local(inst, [table, ids], out, attrs)

    # ---- collectives and reshards ----
    def all_reduce(self, value: Local, groups: list[tuple[int, ...]], reason: str, reducer: str | None = None) -> Local:
        shape = _array(value.shape)
        assert isinstance(value.sharding, Sharding)
        to_apply = reducer or self.adder(shape.dtype)
        name = self.emit("all-reduce", shape.dtype, value.sharding.local_dims(shape.dims), [value.name],
                         [f"channel_id={self.count + 1}", f"replica_groups={_groups_text(groups)}",
                          "use_global_device_ids=true", f"to_apply=%{to_apply}"])
        self.log.add("all-reduce", name, reason)
        return Local(name, value.shape, value.sharding)

    def adder(self, dtype: str) -> str:
        """A scalar add computation for an all-reduce of partial sums (added to the module)."""
        name = f"spmd_add_{dtype}"
        if name not in self.added:
            self.added[name] = (f"%{name} (a: {dtype}[], b: {dtype}[]) -> {dtype}[] {{\n  %a = {dtype}[] parameter(0)\n"
                                f"  %b = {dtype}[] parameter(1)\n  ROOT %sum = {dtype}[] add(%a, %b)\n}}")
        return name

    def reshard_value(self, value: Local, target: ValueSharding, what: str) -> Local:
        if isinstance(value.shape, TupleShape) or not isinstance(target, Sharding):
            assert isinstance(value.sharding, tuple) and isinstance(target, tuple)
            parts = []
            for i, (shape, sharding) in enumerate(zip(value.shape.elements, value.sharding)):  # type: ignore[union-attr]
                element = Local(self.emit("get-tuple-element", "", (), [value.name], [f"index={i}"],
                                          shape_text=self.local_shape_text(Local("", shape, sharding))),
                                shape, sharding)
                parts.append(self.reshard_value(element, target[i], f"{what}, element {i}"))
            name = self.emit("tuple", "", (), [p.name for p in parts],
                             shape_text="(" + ", ".join(self.local_shape_text(p) for p in parts) + ")")
            return Local(name, value.shape, tuple(p.sharding for p in parts))
        current = value.sharding
        assert isinstance(current, Sharding)
        if current == target:
            return value
        # Gather every split dimension the target does not split the same way.
        for d in range(len(current.tiles)):
            if current.tiles[d] > 1 and not _same_along(current, target, d):
                value = self.all_gather(value, d, f"{what} must be whole along dimension {d} "
                                                  f"(it is {current.describe()}; wanted {_describe(target)})")
                current = value.sharding
                assert isinstance(current, Sharding)
        if current != target:  # what is left is whole here and split there: each device slices its tile
            value = self.slice_to(value, target, what)
        return value

    def all_gather(self, value: Local, dim: int, reason: str) -> Local:
        shape = _array(value.shape)
        assert isinstance(value.sharding, Sharding)
        groups = value.sharding.groups_along({dim})
        gathered = value.sharding.without({dim})
        name = self.emit("all-gather", shape.dtype, gathered.local_dims(shape.dims), [value.name],
                         [f"channel_id={self.count + 1}", f"replica_groups={_groups_text(groups)}",
                          f"dimensions={{{dim}}}", "use_global_device_ids=true"])
        self.log.add("all-gather", name, f"{reason}: all-gather over {_groups_text(groups)}")
        return Local(name, value.shape, gathered)

    def slice_to(self, value: Local, target: Sharding, what: str) -> Local:
        """Each device keeps its tile of a whole value: offsets looked up by partition-id."""
        shape = _array(value.shape)
        local = target.local_dims(shape.dims)
        pid = self.emit("convert", "s32", (), [self.partition_id()], hint="partition_s32")
        offsets = []
        for d in range(len(shape.dims)):
            table = [target.offsets(k, shape.dims)[d] for k in range(self.devices)]
            if not any(table):
                offsets.append(self.emit("constant", "s32", (), [], hint="zero", literal="0"))
                continue
            tbl = self.emit("constant", "s32", (self.devices,), [], hint=f"offsets_dim{d}",
                            literal="{" + ", ".join(map(str, table)) + "}")
            one = self.emit("dynamic-slice", "s32", (1,), [tbl, pid], ["dynamic_slice_sizes={1}"])
            offsets.append(self.emit("reshape", "s32", (), [one], hint=f"offset_dim{d}"))
        name = self.emit("dynamic-slice", shape.dtype, local, [value.name, *offsets],
                         [f"dynamic_slice_sizes={{{','.join(map(str, local))}}}"])
        self.log.add("slice", name, f"{what}: whole on every device, wanted {target.describe()}; each device "
                                    "slices its tile (no communication)")
        return Local(name, value.shape, target)


def _dims(inst: Instruction, key: str) -> list[int]:
    value = inst.attrs.get(key)
    return [v for v in value if isinstance(v, int)] if isinstance(value, tuple) else []


def _covers(tiles: tuple[int, ...], coords: dict[int, tuple[int, ...]]) -> bool:
    """Every tile is held by some device, each by as many."""
    held: dict[tuple[int, ...], int] = {}
    for c in coords.values():
        held[c] = held.get(c, 0) + 1
    return len(held) == int(np.prod(tiles)) and len(set(held.values())) == 1


def _same_along(a: Sharding, b: Sharding, dim: int) -> bool:
    return a.tiles[dim] == b.tiles[dim] and all(ca[dim] == cb[dim] for ca, cb in zip(a.coords, b.coords))


def _partial_groups(operand: Sharding, split: set[int], out: Sharding) -> list[tuple[int, ...]]:
    """The devices whose partial sums make one result tile: those holding the other slices of
    the split dimensions and the same result tile."""
    groups = operand.groups_along(split)
    for g in groups:
        if len({out.coords[d] for d in g}) != 1:
            raise NotSupportedError("not supported by the spmd-partitioner: partial sums over devices holding "
                                    "different result tiles")
    return groups


def _groups_text(groups: list[tuple[int, ...]]) -> str:
    return "{" + ",".join("{" + ",".join(map(str, g)) + "}" for g in groups) + "}"


def _describe(sharding: ValueSharding) -> str:
    if isinstance(sharding, tuple):
        return "(" + ", ".join(_describe(s) for s in sharding) + ")"
    return sharding.describe()


def _split_top(text: str) -> list[str]:
    """`{a}, {b, c}` -> ['{a}', '{b, c}'] (commas inside braces kept)."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def partition(module: HloModule, devices: int | None = None) -> tuple[HloModule, DecisionLog]:
    """The per-device module and the log of what was decided (see the module docstring)."""
    log = DecisionLog()
    return SpmdPartitioner(devices).run(module, log), log


__all__ = ["SpmdPartitioner", "partition"]
