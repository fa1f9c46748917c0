"""Shape rules for the batch-norm ops, cholesky and triangular-solve (XLA's ShapeInference).

batch-norm normalizes over every dimension but `feature_index`: its scale, offset, mean and
variance are rank-1 arrays of that dimension's size, of the operand's floating type.
cholesky and triangular-solve take batches of square matrices in the last two dimensions.
"""

from __future__ import annotations

from ..dtypes import element_type
from ..shape import ArrayShape, Shape, TupleShape
from .common import OpCall, check, fmt


def _batch_norm(op: OpCall, data: list[int], features: list[int], names: str) -> ArrayShape:
    """Check the operands; return the data operand. `data` are the indices shaped like x."""
    x = op.array(0, f"{op.opcode} operand")
    check(element_type(x.dtype).is_float, f"{op.opcode} needs a floating-point operand, got {fmt(x)}")
    fi = op.attr("feature_index")
    check(isinstance(fi, int) and 0 <= fi < x.rank, f"{op.opcode} feature_index {fi} is out of range for {fmt(x)}")
    size = x.dims[fi] if 0 <= fi < x.rank else 0
    for i in data[1:]:
        other = op.array(i)
        check(other.dims == x.dims and other.dtype == x.dtype, f"{op.opcode} operand {i} {fmt(other)} must be {fmt(x)}")
    for i, name in zip(features, names.split()):
        f = op.array(i)
        check(f.dtype == x.dtype and f.dims == (size,),
              f"{op.opcode} {name} {fmt(f)} must be {x.dtype}[{size}] (the size of feature dimension {fi})")
    return x


def batch_norm_training(op: OpCall) -> Shape:
    """(operand, scale, offset) -> (normalized, batch mean, batch variance)."""
    x = _batch_norm(op, [0], [1, 2], "scale offset")
    f = ArrayShape(x.dtype, (x.dims[op.attr("feature_index")],))
    return TupleShape((x, f, f))


def batch_norm_inference(op: OpCall) -> Shape:
    """(operand, scale, offset, mean, variance) -> normalized."""
    return _batch_norm(op, [0], [1, 2, 3, 4], "scale offset mean variance")


def batch_norm_grad(op: OpCall) -> Shape:
    """(operand, scale, mean, variance, grad_output) -> (grad_operand, grad_scale, grad_offset)."""
    x = _batch_norm(op, [0, 4], [1, 2, 3], "scale mean variance")
    f = ArrayShape(x.dtype, (x.dims[op.attr("feature_index")],))
    return TupleShape((x, f, f))


def _square_batches(op: OpCall, a: ArrayShape) -> None:
    kind = element_type(a.dtype)
    check(kind.is_float or kind.is_complex, f"{op.opcode} needs a floating-point or complex operand, got {fmt(a)}")
    check(a.rank >= 2 and a.dims[-1] == a.dims[-2],
          f"{op.opcode} needs square matrices in the last two dimensions, got {fmt(a)}")


def cholesky(op: OpCall) -> Shape:
    a = op.array(0, "cholesky operand")
    _square_batches(op, a)
    return a


def triangular_solve(op: OpCall) -> Shape:
    """a x = b (left_side) or x a = b, a triangular; the result has b's shape."""
    a, b = op.array(0, "triangular-solve a"), op.array(1, "triangular-solve b")
    _square_batches(op, a)
    check(a.dtype == b.dtype and a.rank == b.rank and a.dims[:-2] == b.dims[:-2],
          f"triangular-solve a {fmt(a)} and b {fmt(b)} must have one type and the same batch dimensions")
    left = op.attr("left_side", False)
    n = a.dims[-1] if a.rank else 0
    side = b.dims[-2] if left else b.dims[-1]
    check(b.rank < 2 or side == n, f"triangular-solve with left_side={'true' if left else 'false'}: "
                                   f"{fmt(b)} must have {n} in dimension {b.rank - (2 if left else 1)}, to match {fmt(a)}")
    return b


RULES = {
    "batch-norm-training": batch_norm_training,
    "batch-norm-inference": batch_norm_inference,
    "batch-norm-grad": batch_norm_grad,
    "cholesky": cholesky,
    "triangular-solve": triangular_solve,
}
