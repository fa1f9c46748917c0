"""Shape rules for collectives and async pairs (XLA's ShapeInference and HloVerifier).

all-reduce, collective-broadcast and the tuple form of all-to-all keep their operands'
shapes; all-gather multiplies, reduce-scatter divides, the `dimensions` dimension by the
group size (when the groups say it; with `{}` only divisibility is checked). A `-start`
declares its context tuple, which the rule checks holds the operand and the result; the
`-done` gives the result part back.
"""

from __future__ import annotations

from ..replica_groups import ReplicaGroups
from ..shape import ArrayShape, Shape, TokenShape, TupleShape
from .common import OpCall, check, check_params, compatible, fail, fmt, fmt_all, tuple_or_single


def _group_size(op: OpCall) -> int | None:
    groups = op.attr("replica_groups", None)
    return groups.group_size() if isinstance(groups, ReplicaGroups) else None


def _reducer(op: OpCall) -> None:
    """to_apply takes two scalars of each operand's type (XLA checks the reducer's shape)."""
    for operand in op.operands:
        check(isinstance(operand, ArrayShape), f"{op.opcode} operands are arrays, got {fmt(operand)}")
    comp = op.computation("to_apply")
    first = op.operands[0]
    if isinstance(first, ArrayShape):
        scalar = ArrayShape(first.dtype, ())
        check_params(comp, [scalar, scalar], f"{op.opcode} reducer")


def all_reduce(op: OpCall) -> Shape:
    check(len(op.operands) >= 1, f"{op.opcode} needs at least one operand")
    _reducer(op)
    return tuple_or_single(op.operands)


def same_as_operands(op: OpCall) -> Shape:
    check(len(op.operands) >= 1, f"{op.opcode} needs at least one operand")
    return tuple_or_single(op.operands)


def _dimension(op: OpCall, x: ArrayShape) -> int:
    dims = op.attr("dimensions", None)
    check(dims is not None and len(dims) == 1, f"{op.opcode} needs dimensions={{d}}, one dimension")
    d = dims[0] if dims else 0
    check(0 <= d < x.rank, f"{op.opcode} dimension {d} is out of range for {fmt(x)}")
    return d


def _scaled(op: OpCall, gather: bool) -> Shape:
    """all-gather (gather=True) or reduce-scatter: each operand's dimension d times or over the group size."""
    declared = op.need_declared()
    outs = declared.elements if isinstance(declared, TupleShape) and len(op.operands) > 1 else (declared,)
    check(len(outs) == len(op.operands), f"{op.opcode} has {len(op.operands)} operands but declares {fmt(declared)}")
    size = _group_size(op)
    for x, out in zip(op.operands, outs):
        check(isinstance(x, ArrayShape) and isinstance(out, ArrayShape), f"{op.opcode} works on arrays, got {fmt(x)}")
        if not (isinstance(x, ArrayShape) and isinstance(out, ArrayShape)):
            continue
        d = _dimension(op, x)
        check(x.dtype == out.dtype and x.rank == out.rank and all(
            a == b for i, (a, b) in enumerate(zip(x.dims, out.dims)) if i != d),
            f"{op.opcode} of {fmt(x)} cannot give {fmt(out)}: only dimension {d} changes")
        big, small = (out.dims[d], x.dims[d]) if gather else (x.dims[d], out.dims[d])
        if size is not None:
            check(big == small * size, f"{op.opcode} over groups of {size}: dimension {d} of {fmt(x)} "
                                       f"{'times' if gather else 'over'} {size} is not {fmt(out)}")
        else:
            check(small != 0 and big % small == 0 or big == small == 0,
                  f"{op.opcode} dimension {d}: {fmt(out)} is not a whole multiple of {fmt(x)}" if gather
                  else f"{op.opcode} dimension {d}: {fmt(x)} does not split into {fmt(out)}")
    return declared


def all_gather(op: OpCall) -> Shape:
    return _scaled(op, gather=True)


def reduce_scatter(op: OpCall) -> Shape:
    _reducer(op)
    return _scaled(op, gather=False)


def all_to_all(op: OpCall) -> Shape:
    """Array form (dimensions={d}): the split dimension divides by the group size. Without
    `dimensions` it is the tuple form, a tuple of the operands' shapes even for one operand
    (as XLA infers it)."""
    if op.attr("dimensions", None) is None:
        return TupleShape(tuple(op.operands))
    if len(op.operands) == 1:
        x = op.array(0, "all-to-all operand")
        d = _dimension(op, x)
        size = _group_size(op)
        check(size is None or x.dims[d] % size == 0,
              f"all-to-all split dimension {d} of {fmt(x)} does not divide into groups of {size}")
    return tuple_or_single(op.operands)


def ragged_all_to_all(op: OpCall) -> Shape:
    """(input, output, input_offsets, send_sizes, output_offsets, recv_sizes) -> output."""
    data, output = op.array(0, "ragged-all-to-all input"), op.array(1, "ragged-all-to-all output")
    check(data.dtype == output.dtype, f"ragged-all-to-all input {fmt(data)} and output {fmt(output)} differ in type")
    for i in range(2, 6):
        meta = op.array(i, "ragged-all-to-all offsets and sizes")
        check(meta.dtype in ("s32", "s64"), f"ragged-all-to-all operand {i} must be s32 or s64, got {fmt(meta)}")
    return output


def collective_permute(op: OpCall) -> Shape:
    check(op.attr("source_target_pairs", None) is not None, "collective-permute needs source_target_pairs")
    if _in_place(op):
        return op.operands[1]  # the output buffer, updated in place
    return tuple_or_single(op.operands)  # one buffer, or several sent together (the combined form)


def _in_place(op: OpCall) -> bool:
    """collective-permute(input, output, input offsets, output offsets): the in-place form."""
    return len(op.operands) == 4 and isinstance(op.operands[2], TupleShape)


def _start(op: OpCall, result: Shape) -> Shape:
    """A -start declares (operand(s), result, context...); check the first two."""
    declared = op.need_declared()
    if not isinstance(declared, TupleShape):  # all-reduce-start is declared as its result
        check(compatible(declared, result), f"{op.opcode} declares {fmt(declared)}, but gives {fmt(result)}")
        return declared
    check(len(declared.elements) >= 2, f"{op.opcode} declares {fmt(declared)}: (operand, result, ...) expected")
    operand = tuple_or_single(op.operands)
    check(compatible(declared.elements[0], operand),
          f"{op.opcode} context element 0 is {fmt(declared.elements[0])}, but the operand is {fmt(operand)}")
    check(compatible(declared.elements[1], result),
          f"{op.opcode} context element 1 is {fmt(declared.elements[1])}, but the result is {fmt(result)}")
    return declared


def all_reduce_start(op: OpCall) -> Shape:
    return _start(op, all_reduce(op))


def all_gather_start(op: OpCall) -> Shape:
    declared = op.need_declared()
    result = declared.elements[1] if isinstance(declared, TupleShape) and len(declared.elements) >= 2 else declared
    _scaled(OpCall("all-gather", op.operands, op.attrs, op.module, result), gather=True)
    return _start(op, result)


def collective_permute_start(op: OpCall) -> Shape:
    if not _in_place(op):
        return _start(op, collective_permute(op))
    declared = op.need_declared()  # (input, output, context...)
    ok = isinstance(declared, TupleShape) and len(declared.elements) >= 2 and all(
        compatible(e, x) for e, x in zip(declared.elements[:2], op.operands[:2]))
    check(ok, f"in-place collective-permute-start must declare ({fmt_all(op.operands[:2])}, ...), not {fmt(declared)}")
    return declared


def done(op: OpCall) -> Shape:
    """The result part of the -start's context (element 1), or the value itself."""
    context = op.operands[0]
    if isinstance(context, TupleShape):
        check(len(context.elements) >= 2, f"{op.opcode} operand {fmt(context)} is not a -start context")
        return context.elements[1]
    return context


def copy_start(op: OpCall) -> Shape:
    """(destination, source, u32[] context), both buffers the operand's shape."""
    x = op.operands[0]
    declared = op.need_declared()
    ok = isinstance(declared, TupleShape) and len(declared.elements) == 3 and all(
        compatible(e, x) for e in declared.elements[:2]) and compatible(declared.elements[2], ArrayShape("u32", ()))
    check(ok, f"copy-start of {fmt(x)} must declare ({fmt(x)}, {fmt(x)}, u32[]), not {fmt(declared)}")
    return declared


def copy_done(op: OpCall) -> Shape:
    context = op.operands[0]
    check(isinstance(context, TupleShape) and len(context.elements) == 3,
          f"copy-done takes a copy-start's (dest, source, u32[]), got {fmt(context)}")
    return context.elements[0] if isinstance(context, TupleShape) else context


def _token(op: OpCall, i: int) -> None:
    check(isinstance(op.operands[i], TokenShape), f"{op.opcode} operand {i} must be a token, got {fmt(op.operands[i])}")


def send(op: OpCall) -> Shape:
    """send(data, token) -> (data, u32[] context, token[])."""
    _token(op, 1)
    return TupleShape((op.operands[0], ArrayShape("u32", ()), TokenShape()))


def send_done(op: OpCall) -> Shape:
    return TokenShape()


def recv(op: OpCall) -> Shape:
    """recv(token) -> (declared data, u32[] context, token[])."""
    _token(op, 0)
    declared = op.need_declared()
    ok = isinstance(declared, TupleShape) and len(declared.elements) == 3 and isinstance(declared.elements[2], TokenShape)
    check(ok, f"recv must declare (data, u32[], token[]), not {fmt(declared)}")
    return declared


def recv_done(op: OpCall) -> Shape:
    context = op.operands[0]
    if not (isinstance(context, TupleShape) and len(context.elements) == 3):
        fail(f"recv-done takes a recv's (data, u32[], token[]), got {fmt(context)}")
    return TupleShape((context.elements[0], TokenShape()))


def async_start(op: OpCall) -> Shape:
    """((operands), result, context...): the called computation maps the operands to the result."""
    declared = op.need_declared()
    check(isinstance(declared, TupleShape) and len(declared.elements) >= 2,
          f"{op.opcode} must declare ((operands), result, ...), not {fmt(declared)}")
    if "calls" in op.attrs and isinstance(declared, TupleShape):
        result = check_params(op.computation("calls"), list(op.operands), f"{op.opcode} computation")
        declared_result = list(declared.elements)[1]
        check(compatible(declared_result, result),
              f"{op.opcode} declares result {fmt(declared_result)}, its computation gives {fmt(result)}")
    return declared


def async_update(op: OpCall) -> Shape:
    return op.operands[0]


RULES = {
    "all-reduce": all_reduce,
    "all-gather": all_gather,
    "all-to-all": all_to_all,
    "reduce-scatter": reduce_scatter,
    "collective-broadcast": same_as_operands,
    "collective-permute": collective_permute,
    "ragged-all-to-all": ragged_all_to_all,
    "all-reduce-start": all_reduce_start,
    "all-gather-start": all_gather_start,
    "collective-permute-start": collective_permute_start,
    "all-reduce-done": done,
    "all-gather-done": done,
    "collective-permute-done": done,
    "copy-start": copy_start,
    "copy-done": copy_done,
    "send": send,
    "send-done": send_done,
    "recv": recv,
    "recv-done": recv_done,
    "async-start": async_start,
    "custom-call-start": async_start,
    "async-update": async_update,
    "custom-call-update": async_update,
    "async-done": done,
    "custom-call-done": done,
}
