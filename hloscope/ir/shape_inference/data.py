"""Shape rules for data movement: broadcast, reshape, transpose, slices, pad, concatenate,
reverse, iota, bitcast and tuples.

Where the result dimensions are an input of the op rather than a consequence of it
(broadcast, reshape, iota, bitcast), the declared shape supplies them and the rule checks
that they are consistent with the operand, as XLA's verifier does.
"""

from __future__ import annotations

from ..shape import ArrayShape, Shape, TupleShape
from .common import OpCall, check, check_dims, fail, fmt


def broadcast(op: OpCall) -> Shape:
    """Operand dim i becomes output dim dimensions[i]; sizes must match exactly."""
    x, out = op.array(0), op.declared_array()
    dims = tuple(op.attr("dimensions", ()))
    check(
        len(dims) == x.rank,
        f"broadcast dimensions {list(dims)} must have one entry per operand dimension of {fmt(x)}",
    )
    check_dims(dims, out.rank, "broadcast dimension")
    for i, d in enumerate(dims):
        check(
            x.dims[i] == out.dims[d],
            f"broadcast maps operand dimension {i} (size {x.dims[i]}) to output dimension {d} (size {out.dims[d]})",
        )
    return ArrayShape(x.dtype, out.dims)


def reshape(op: OpCall) -> Shape:
    """Any dims with the same element count."""
    x, out = op.array(0), op.declared_array()
    check(
        x.size == out.size,
        f"reshape cannot change the element count: {fmt(x)} has {x.size}, {fmt(out)} has {out.size}",
    )
    return ArrayShape(x.dtype, out.dims)


def transpose(op: OpCall) -> Shape:
    """out.dims[i] = in.dims[dimensions[i]]; dimensions is a permutation."""
    x = op.array(0)
    perm = tuple(op.attr("dimensions"))
    check(
        sorted(perm) == list(range(x.rank)),
        f"transpose dimensions {list(perm)} are not a permutation of 0..{x.rank - 1}",
    )
    return ArrayShape(x.dtype, tuple(x.dims[p] for p in perm))


def slice_(op: OpCall) -> Shape:
    """`[start:limit:stride]` per dim: ceil((limit - start) / stride) elements."""
    x = op.array(0)
    spec = op.attr("slice")
    check(len(spec) == x.rank, f"slice has {len(spec)} ranges for {fmt(x)} of rank {x.rank}")
    dims = []
    for i, (s, size) in enumerate(zip(spec, x.dims)):
        check(s.stride > 0, f"slice stride {s.stride} in dimension {i} must be positive")
        check(
            0 <= s.start <= s.limit <= size,
            f"slice [{s.start}:{s.limit}] is out of bounds for dimension {i} of {fmt(x)}",
        )
        dims.append((s.limit - s.start + s.stride - 1) // s.stride)  # ceil, in integers
    return ArrayShape(x.dtype, tuple(dims))


def _start_indices(op: OpCall, first: int, rank: int) -> None:
    """Start indices: one integer scalar per dim (or, in old HLO, one rank-1 array)."""
    idx = op.arrays(first)
    if len(idx) == 1 and idx[0].rank == 1:
        idx_ok = idx[0].dims[0] == rank
    else:
        idx_ok = len(idx) == rank and all(i.rank == 0 for i in idx)
    check(idx_ok, f"{op.opcode} needs {rank} scalar start indices, got {len(idx)}")
    for i in idx:
        check(i.element_type.is_integer, f"{op.opcode} start index {fmt(i)} must be an integer")
    check(len({i.dtype for i in idx}) <= 1, f"{op.opcode} start indices have different types")


def dynamic_slice(op: OpCall) -> Shape:
    """A slice of `dynamic_slice_sizes` at run-time start indices."""
    x = op.array(0)
    sizes = tuple(op.attr("dynamic_slice_sizes"))
    check(
        len(sizes) == x.rank,
        f"dynamic-slice sizes {list(sizes)} must have one entry per dimension of {fmt(x)}",
    )
    _start_indices(op, 1, x.rank)
    for i, (s, d) in enumerate(zip(sizes, x.dims)):
        check(0 <= s <= d, f"dynamic-slice size {s} does not fit dimension {i} of {fmt(x)}")
    return ArrayShape(x.dtype, sizes)


def dynamic_update_slice(op: OpCall) -> Shape:
    """The operand with `update` written in at run-time start indices."""
    check(
        len(op.operands) >= 2, "dynamic-update-slice needs an operand, an update and start indices"
    )
    x, upd = op.array(0), op.array(1)
    check(
        upd.dtype == x.dtype and upd.rank == x.rank,
        f"dynamic-update-slice update {fmt(upd)} does not match {fmt(x)}",
    )
    for i, (u, d) in enumerate(zip(upd.dims, x.dims)):
        check(
            u <= d,
            f"dynamic-update-slice update {fmt(upd)} is larger than {fmt(x)} in dimension {i}",
        )
    _start_indices(op, 2, x.rank)
    return x


def concatenate(op: OpCall) -> Shape:
    """Operands equal except along `dimensions[0]`, where sizes add up."""
    shapes = op.arrays()
    check(len(shapes) >= 1, "concatenate needs at least one operand")
    dims_attr = tuple(op.attr("dimensions"))
    check(len(dims_attr) == 1, f"concatenate needs exactly one dimension, got {list(dims_attr)}")
    dim = dims_attr[0]
    first = shapes[0]
    check(0 <= dim < first.rank, f"concatenate dimension {dim} is out of range for {fmt(first)}")
    for s in shapes[1:]:
        same = s.dtype == first.dtype and s.rank == first.rank
        same = same and all(a == b for i, (a, b) in enumerate(zip(s.dims, first.dims)) if i != dim)
        check(
            same, f"concatenate operands {fmt(first)} and {fmt(s)} differ outside dimension {dim}"
        )
    dims = list(first.dims)
    dims[dim] = sum(s.dims[dim] for s in shapes)
    return ArrayShape(first.dtype, tuple(dims))


def pad(op: OpCall) -> Shape:
    """lo + hi + dim + (dim - 1) * interior per dimension; lo and hi may be negative."""
    x, value = op.array(0), op.array(1)
    check(
        value.rank == 0 and value.dtype == x.dtype,
        f"pad value {fmt(value)} must be a scalar of {x.dtype}",
    )
    config = op.attr("padding")
    check(len(config) == x.rank, f"pad has {len(config)} entries for {fmt(x)} of rank {x.rank}")
    dims = []
    for i, (p, d) in enumerate(zip(config, x.dims)):
        check(p.interior >= 0, f"pad interior {p.interior} in dimension {i} is negative")
        size = p.low + p.high + d + max(d - 1, 0) * p.interior
        check(size >= 0, f"pad {p} makes dimension {i} of {fmt(x)} negative ({size})")
        dims.append(size)
    return ArrayShape(x.dtype, tuple(dims))


def reverse(op: OpCall) -> Shape:
    x = op.array(0)
    check_dims(tuple(op.attr("dimensions")), x.rank, "reverse dimension")
    return x


def iota(op: OpCall) -> Shape:
    out = op.declared_array()
    dim = op.attr("iota_dimension")
    check(0 <= dim < out.rank, f"iota_dimension {dim} is out of range for {fmt(out)}")
    check(out.dtype != "pred", "iota cannot produce pred")
    return out


def bitcast(op: OpCall) -> Shape:
    """A reinterpretation of the same bytes: the byte sizes must agree."""
    x, out = op.array(0), op.declared_array()
    check(
        x.byte_size == out.byte_size,
        f"bitcast changes the byte size: {fmt(x)} is {x.byte_size} bytes, {fmt(out)} is {out.byte_size}",
    )
    return out


def tuple_(op: OpCall) -> Shape:
    return TupleShape(tuple(op.operands))


def get_tuple_element(op: OpCall) -> Shape:
    t = op.operands[0]
    if not isinstance(t, TupleShape):
        fail(f"get-tuple-element needs a tuple operand, got {fmt(t)}")
    index = op.attr("index")
    check(
        0 <= index < len(t.elements),
        f"get-tuple-element index {index} is out of range for {fmt(t)}",
    )
    return t.elements[index]


RULES = {
    "broadcast": broadcast,
    "reshape": reshape,
    "transpose": transpose,
    "slice": slice_,
    "dynamic-slice": dynamic_slice,
    "dynamic-update-slice": dynamic_update_slice,
    "concatenate": concatenate,
    "pad": pad,
    "reverse": reverse,
    "iota": iota,
    "bitcast": bitcast,
    "tuple": tuple_,
    "get-tuple-element": get_tuple_element,
}
