"""Shape rule for `scan` (XLA's scan opcode, as jaxlib 0.10.2 reads and runs it):

    ROOT s = (f32[4], s32[]) scan(xs, c0), dimensions={0}, num_carries=1, to_apply=body

The last `num_carries` operands are the initial carries, the others are inputs scanned along
`dimensions={d}`. The body takes one slice of every input (dimension d removed) then the
carries, and returns the outputs' slices then the new carries. The result is the outputs
stacked along d, then the final carries (one array, not a tuple, when the body returns
one array).
"""

from __future__ import annotations

from ..shape import ArrayShape, Shape, TupleShape
from .common import OpCall, check, check_params, compatible, fmt


def _split(op: OpCall) -> tuple[list[ArrayShape], list[Shape], int]:
    carries = op.attr("num_carries")
    check(0 <= carries <= len(op.operands),
          f"scan has {carries} carries, but only {len(op.operands)} operands")
    dims = tuple(op.attr("dimensions"))
    check(len(dims) == 1, f"scan takes exactly one scan dimension, got dimensions={list(dims)}")
    n_inputs = len(op.operands) - carries
    return op.arrays(0, n_inputs), list(op.operands[n_inputs:]), dims[0]


def _length(inputs: list[ArrayShape], d: int, op: OpCall) -> int:
    for i, x in enumerate(inputs):
        check(0 <= d < x.rank, f"scan dimension {d} is out of range for input {i} {fmt(x)}")
    if inputs:
        length = inputs[0].dims[d]
        check(all(x.dims[d] == length for x in inputs),
              f"scan inputs disagree on the size of dimension {d}: {', '.join(fmt(x) for x in inputs)}")
        return length
    declared = op.need_declared()
    first = declared.elements[0] if isinstance(declared, TupleShape) and declared.elements else None
    check(isinstance(first, ArrayShape) and 0 <= d < first.rank,
          "scan with no inputs needs an output to tell the scan length")
    assert isinstance(first, ArrayShape)
    return first.dims[d]


def scan(op: OpCall) -> Shape:
    """(outputs stacked along d..., final carries...)."""
    inputs, inits, d = _split(op)
    length = _length(inputs, d, op)
    slices = [x.with_dims(x.dims[:d] + x.dims[d + 1:]) for x in inputs]
    body = op.computation("to_apply")
    root = check_params(body, [*slices, *inits], "scan body")
    returned = list(root.elements) if isinstance(root, TupleShape) else [root]
    check(len(returned) >= len(inits),
          f"scan body {body.name} returns {len(returned)} values, fewer than its {len(inits)} carries")
    n_out = len(returned) - len(inits)
    for i, (got, init) in enumerate(zip(returned[n_out:], inits)):
        check(compatible(got, init), f"scan body {body.name} returns carry {i} as {fmt(got)}, "
                                     f"but it starts as {fmt(init)}")
    outputs = []
    for i, y in enumerate(returned[:n_out]):
        check(isinstance(y, ArrayShape) and d <= y.rank,
              f"scan body output {i} {fmt(y)} cannot be stacked along dimension {d}")
        assert isinstance(y, ArrayShape)
        outputs.append(y.with_dims(y.dims[:d] + (length,) + y.dims[d:]))
    if not isinstance(root, TupleShape):  # a body returning one array makes an array, as in XLA
        return outputs[0] if outputs else inits[0]
    return TupleShape((*outputs, *inits))


RULES = {"scan": scan}
