"""algsimp rules for data movement: reshape, transpose, broadcast, slice, concatenate, pad,
reverse, reduce and dot. Same contract as rules.py: `rule(inst, ctx) -> name | None`,
the identity in the docstring's first line.

JAX's output is full of these: `jnp.expand_dims` then `broadcast_in_dim` lowers to
`reshape -> broadcast(dimensions={0,1}) -> reshape -> broadcast`, and the chain collapses
to one broadcast through identity_broadcast, reshape_of_reshape and reshape_to_same_shape.
"""

from __future__ import annotations

from ...ir.attributes import SliceDim
from ...ir.instruction import Instruction
from ...ir.shape import ArrayShape

# ---- reshape, transpose, broadcast ----


def reshape_to_same_shape(inst, ctx):
    """reshape(x) to x's own shape = x"""
    x = ctx.op(inst.operands[0])
    return x.name if x.shape == inst.shape else None


def reshape_of_reshape(inst, ctx):
    """reshape(reshape(x)) = reshape(x)"""
    inner = ctx.op(inst.operands[0])
    if inner.opcode != "reshape":
        return None
    x = ctx.op(inner.operands[0])
    return x.name if x.shape == inst.shape else ctx.add("reshape", inst.shape, [x.name])


def identity_transpose(inst, ctx):
    """transpose(x, dimensions={0,1,...}) = x"""
    return inst.operands[0] if inst.attr("dimensions") == tuple(range(inst.shape.rank)) else None


def transpose_of_transpose(inst, ctx):
    """transpose(transpose(x, p), q) = transpose(x, p[q])"""
    inner = ctx.op(inst.operands[0])
    if inner.opcode != "transpose":
        return None
    p, q = inner.attr("dimensions"), inst.attr("dimensions")
    composed = tuple(p[i] for i in q)
    x = ctx.op(inner.operands[0])
    if composed == tuple(range(len(composed))) and x.shape == inst.shape:
        return x.name
    return ctx.add("transpose", inst.shape, [x.name], dimensions=composed)


def identity_broadcast(inst, ctx):
    """broadcast(x) to x's own shape, dimensions={0,1,...} = x"""
    x = ctx.op(inst.operands[0])
    same = x.shape == inst.shape and inst.attr("dimensions") == tuple(range(inst.shape.rank))
    return x.name if same else None


def broadcast_of_broadcast(inst, ctx):
    """broadcast(broadcast(x, d1), d2) = broadcast(x, d2[d1])"""
    inner = ctx.op(inst.operands[0])
    if inner.opcode != "broadcast":
        return None
    outer = inst.attr("dimensions")
    composed = tuple(outer[d] for d in inner.attr("dimensions"))
    return ctx.add("broadcast", inst.shape, [inner.operands[0]], dimensions=composed)


# ---- slice, concatenate, pad, reverse ----


def full_slice(inst, ctx):
    """slice(x) that takes every element = x"""
    x = ctx.op(inst.operands[0])
    whole = all(
        s.start == 0 and s.stride == 1 and s.limit == d for s, d in zip(inst.attr("slice"), x.shape.dims)
    )
    return x.name if whole else None


def slice_of_slice(inst, ctx):
    """slice(slice(x, s1), s2) = slice(x, s1 then s2)"""
    inner = ctx.op(inst.operands[0])
    if inner.opcode != "slice":
        return None
    dims = tuple(
        _compose_slice(a, b, n) for a, b, n in zip(inner.attr("slice"), inst.attr("slice"), inst.shape.dims)
    )
    return ctx.add("slice", inst.shape, [inner.operands[0]], slice=dims)


def _compose_slice(first: SliceDim, second: SliceDim, count: int) -> SliceDim:
    """One dimension of slicing `second` out of the result of slicing `first`."""
    start = first.start + second.start * first.stride
    stride = first.stride * second.stride
    limit = start + (count - 1) * stride + 1 if count > 0 else start
    return SliceDim(start, limit, stride)


def concatenate_of_one_operand(inst, ctx):
    """concatenate(x) = x"""
    return inst.operands[0] if len(inst.operands) == 1 else None


def pad_with_zero_padding(inst, ctx):
    """pad(x, v) with no padding anywhere = x"""
    none = all(p.low == 0 and p.high == 0 and p.interior == 0 for p in inst.attr("padding"))
    return inst.operands[0] if none else None


def reverse_of_reverse(inst, ctx):
    """reverse(reverse(x, d), d) = x"""
    inner = ctx.op(inst.operands[0])
    if inner.opcode != "reverse" or set(inner.attr("dimensions")) != set(inst.attr("dimensions")):
        return None
    return inner.operands[0]


# ---- reduce and dot ----

# The identity element of a reducer's root opcode, by element kind.
_IDENTITIES = {
    "add": lambda k: 0,
    "multiply": lambda k: 1,
    "or": lambda k: 0,
    "and": lambda k: {"pred": True, "signed": -1}.get(k),  # all bits set
    "maximum": lambda k: float("-inf") if k == "float" else None,
    "minimum": lambda k: float("inf") if k == "float" else None,
}


def reduce_over_no_dimensions(inst, ctx):
    """reduce(x, identity) over no dimensions, or only size-1 ones, = reshape(x)"""
    if len(inst.operands) != 2 or not isinstance(inst.shape, ArrayShape):
        return None
    x = ctx.op(inst.operands[0])
    if any(x.shape.dims[d] != 1 for d in inst.attr("dimensions")):
        return None
    identity = reducer_identity(ctx.module, inst.attr("to_apply"), x.shape.element_type.kind)
    if identity is None or not ctx.is_splat(inst.operands[1], identity):
        return None
    return x.name if x.shape == inst.shape else ctx.add("reshape", inst.shape, [x.name])


def reducer_identity(module, name: str, kind: str):
    """The identity of a reducer that is one binary op of its two parameters, else None."""
    comp = module.computation(name)
    root = comp.root_instruction
    params = {p.name for p in comp.parameters}
    if len(params) != 2 or set(root.operands) != params or root.opcode not in _IDENTITIES:
        return None
    return _IDENTITIES[root.opcode](kind)


def dot_with_size_one_contracting(inst, ctx):
    """dot(a, b) contracting only size-1 dimensions = broadcast(a) * broadcast(b)"""
    a, b = ctx.operands(inst)
    if not _plain_dot(inst, a, b):
        return None
    lhs = _dot_side(inst, a, "lhs", 0)
    rhs = _dot_side(inst, b, "rhs", len(_free(inst, a, "lhs")))
    if lhs is None or rhs is None:
        return None
    sides = [_broadcast_side(ctx, inst, x, kept, to) for x, (kept, to) in ((a, lhs), (b, rhs))]
    return ctx.add("multiply", inst.shape, sides)


def _plain_dot(inst: Instruction, a: Instruction, b: Instruction) -> bool:
    """A dot of one numeric type whose contracting dimensions all have size 1."""
    shape = inst.shape
    if not isinstance(shape, ArrayShape) or shape.dtype == "pred":
        return False
    if not all(isinstance(s, ArrayShape) and s.dtype == shape.dtype for s in (a.shape, b.shape)):
        return False
    return all(a.array_shape.dims[d] == 1 for d in inst.attr("lhs_contracting_dims", ()))


def _free(inst: Instruction, x: Instruction, side: str) -> list[int]:
    used = set(inst.attr(f"{side}_batch_dims", ())) | set(inst.attr(f"{side}_contracting_dims", ()))
    return [d for d in range(x.array_shape.rank) if d not in used]


def _dot_side(
    inst: Instruction, x: Instruction, side: str, free_offset: int
) -> tuple[list[int], tuple[int, ...]] | None:
    """(operand dims kept, their output positions), or None if not increasing (not "easy")."""
    batch = list(inst.attr(f"{side}_batch_dims", ()))
    free = _free(inst, x, side)
    position = {d: i for i, d in enumerate(batch)}
    position.update({d: len(batch) + free_offset + j for j, d in enumerate(free)})
    kept = sorted(position)
    to = tuple(position[d] for d in kept)
    return (kept, to) if list(to) == sorted(to) else None


def _broadcast_side(ctx, inst: Instruction, x: Instruction, kept: list[int], to: tuple) -> str:
    """Drop the size-1 contracting dims of `x` and broadcast it to the dot's shape."""
    name, shape = x.name, x.array_shape
    if len(kept) != shape.rank:
        name = ctx.add("reshape", ArrayShape(shape.dtype, tuple(shape.dims[d] for d in kept)), [name])
    return ctx.add("broadcast", inst.shape, [name], dimensions=to)


RULES = {
    "reshape": [reshape_to_same_shape, reshape_of_reshape],
    "transpose": [identity_transpose, transpose_of_transpose],
    "broadcast": [identity_broadcast, broadcast_of_broadcast],
    "slice": [full_slice, slice_of_slice],
    "concatenate": [concatenate_of_one_operand],
    "pad": [pad_with_zero_padding],
    "reverse": [reverse_of_reverse],
    "reduce": [reduce_over_no_dimensions],
    "dot": [dot_with_size_one_contracting],
}
