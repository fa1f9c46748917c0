"""Shape rules for elementwise ops: unary, binary, compare, convert, select, clamp and map.

As in XLA's ShapeInference, operands of an elementwise op must have identical dimensions
and element types (HLO has no implicit broadcasting; that is the builder's job), and each
op accepts only the element kinds it is defined on: `tanh` of an s32 is an error.
"""

from __future__ import annotations

from ..dtypes import complex_of, element_type, real_part_type
from ..opcodes import COMPARISON_DIRECTIONS, COMPARISON_ORDERS, COMPARISON_TYPES
from ..shape import ArrayShape, Shape, scalar
from .common import OpCall, check, check_params, fail, fmt

_FLOAT_ONLY = set(
    "exponential exponential-minus-one log log-plus-one sqrt rsqrt cbrt tanh logistic sine "
    "cosine tan floor ceil round-nearest-even round-nearest-afz erf is-finite reduce-precision "
    "atan2".split()
)
_INT_ONLY = set(
    "popcnt count-leading-zeros shift-left shift-right-arithmetic shift-right-logical".split()
)
_PRED_OR_INT = set("not and or xor".split())
_BINARY_REAL_ONLY = set("remainder maximum minimum atan2 floor ceil round-nearest-even round-nearest-afz "
                        "is-finite erf reduce-precision clamp".split())
_NOT_PRED = set("abs negate sign".split())
# Float-only ops that XLA also defines on c64/c128 (ShapeInference's complex cases).
_COMPLEX_OK = set(
    "exponential exponential-minus-one log log-plus-one sqrt rsqrt cbrt tanh logistic sine cosine tan "
    "add subtract multiply divide power abs negate sign".split()
)


def _check_kind(opcode: str, shape: ArrayShape) -> None:
    """The element kinds XLA accepts for each elementwise op."""
    kind = element_type(shape.dtype).kind
    if kind == "complex":
        ok = opcode in _COMPLEX_OK or opcode not in _FLOAT_ONLY | _INT_ONLY | _PRED_OR_INT | _BINARY_REAL_ONLY
        check(ok, f"{opcode} is not defined on complex element types, got {fmt(shape)}")
        return
    if opcode in _FLOAT_ONLY:
        ok, want = kind == "float", "a floating-point"
    elif opcode in _INT_ONLY:
        ok, want = kind in ("signed", "unsigned"), "an integer"
    elif opcode in _PRED_OR_INT:
        ok, want = kind != "float", "a pred or integer"
    elif opcode in _NOT_PRED:
        ok, want = kind != "pred", "a numeric"
    else:
        return
    check(ok, f"{opcode} needs {want} element type, got {fmt(shape)}")


def unary(op: OpCall) -> Shape:
    """Same shape as the operand (`is-finite` gives pred)."""
    x = op.array(0)
    _check_kind(op.opcode, x)
    if op.opcode == "is-finite":
        return x.with_dtype("pred")
    et = element_type(x.dtype)
    if op.opcode in ("real", "imag"):
        check(et.is_complex or et.is_float, f"{op.opcode} needs a complex or floating-point operand, got {fmt(x)}")
        return x.with_dtype(real_part_type(et).name)
    if op.opcode == "abs" and et.is_complex:
        return x.with_dtype(real_part_type(et).name)
    return x


def _same_operands(op: OpCall) -> ArrayShape:
    """All operands have one shape (ignoring layout); return the first."""
    shapes = op.arrays()
    first = shapes[0]
    for other in shapes[1:]:
        if other.dims != first.dims:
            fail(f"operand shapes {fmt(first)} and {fmt(other)} differ")
        if other.dtype != first.dtype:
            fail(f"operand element types differ: {fmt(first)} and {fmt(other)}")
    return first


def binary(op: OpCall) -> Shape:
    """Both operands have the same dimensions and element type; so does the result."""
    x = _same_operands(op)
    if op.opcode == "complex":
        made = complex_of(element_type(x.dtype))
        check(made is not None, f"complex needs f32 or f64 operands, got {fmt(x)}")
        return x.with_dtype(made.name if made else x.dtype)
    _check_kind(op.opcode, x)
    return x


def compare(op: OpCall) -> Shape:
    """Like a binary op, but the result is pred; direction (and type, if given) are valid."""
    direction = op.attr("direction")
    check(
        direction in COMPARISON_DIRECTIONS,
        f"compare direction {direction} is not one of {', '.join(COMPARISON_DIRECTIONS)}",
    )
    kind = op.attr("type", None)
    check(
        kind is None or kind in COMPARISON_TYPES,
        f"compare type {kind} is not one of {', '.join(COMPARISON_TYPES)}",
    )
    order = op.attr("order", None)
    check(
        order is None or order in COMPARISON_ORDERS,
        f"compare order {order} is not one of {', '.join(COMPARISON_ORDERS)}",
    )
    x = _same_operands(op)
    check(
        not element_type(x.dtype).is_complex or direction in ("EQ", "NE"),
        f"compare {direction} is not defined on complex {fmt(x)}: only EQ and NE are",
    )
    return x.with_dtype("pred")


def convert(op: OpCall) -> Shape:
    """Same dimensions, the declared element type."""
    x, out = op.array(0), op.declared_array()
    check(x.dims == out.dims, f"convert cannot change dimensions: {fmt(x)} to {fmt(out)}")
    check(
        not element_type(x.dtype).is_complex or element_type(out.dtype).is_complex,
        f"convert from complex {fmt(x)} to real {out.dtype} is not supported (XLA: use real or imag)",
    )
    return x.with_dtype(out.dtype)


def bitcast_convert(op: OpCall) -> Shape:
    """Reinterpret bits: equal widths keep the dims; otherwise a minor dim of the ratio appears or goes."""
    x, out = op.array(0), op.declared_array()
    src, dst = element_type(x.dtype).bits, element_type(out.dtype).bits
    if src == dst:
        dims = x.dims
    elif src > dst:
        dims = x.dims + (src // dst,)
    else:
        check(
            x.dims[-1:] == (dst // src,),
            f"bitcast-convert {fmt(x)} to {out.dtype} needs a last dimension of {dst // src}",
        )
        dims = x.dims[:-1]
    return ArrayShape(out.dtype, dims)


def select(op: OpCall) -> Shape:
    """select(pred, on_true, on_false): pred has the same dims (or is a scalar)."""
    pred, on_true, on_false = op.arrays()
    check(pred.dtype == "pred", f"select predicate must be pred, got {fmt(pred)}")
    check(
        on_true.same_dims_and_type(on_false),
        f"select branches differ: {fmt(on_true)} and {fmt(on_false)}",
    )
    check(
        pred.rank == 0 or pred.dims == on_true.dims,
        f"select predicate {fmt(pred)} does not match {fmt(on_true)}",
    )
    return on_true


def clamp(op: OpCall) -> Shape:
    """clamp(min, x, max): bounds have x's shape or are scalars of its type."""
    lo, x, hi = op.arrays()
    for name, bound in (("min", lo), ("max", hi)):
        check(
            bound.dtype == x.dtype, f"clamp {name} {fmt(bound)} has a different type from {fmt(x)}"
        )
        check(
            bound.rank == 0 or bound.dims == x.dims,
            f"clamp {name} {fmt(bound)} does not match {fmt(x)}",
        )
    return x


def map_(op: OpCall) -> Shape:
    """map(xs..., to_apply): the scalar computation applied elementwise over equal-dim arrays."""
    shapes = op.arrays()
    for s in shapes[1:]:
        check(
            s.dims == shapes[0].dims,
            f"map operands {fmt(shapes[0])} and {fmt(s)} differ in dimensions",
        )
    dims = op.attr("dimensions", None)
    check(
        dims is None or tuple(dims) == tuple(range(shapes[0].rank)),
        f"map dimensions {dims} must be all dimensions in order",
    )
    comp = op.computation("to_apply")
    root = check_params(comp, [scalar(s.dtype) for s in shapes], "map computation")
    if not (isinstance(root, ArrayShape) and root.rank == 0):
        fail(f"map computation {comp.name} must return a scalar, not {fmt(root)}")
    return ArrayShape(root.dtype, shapes[0].dims)


RULES = {
    **{
        name: unary
        for name in (
            "abs negate exponential exponential-minus-one log log-plus-one sqrt rsqrt cbrt tanh "
            "logistic sine cosine tan floor ceil round-nearest-even round-nearest-afz sign not "
            "is-finite erf popcnt count-leading-zeros real imag reduce-precision"
        ).split()
    },
    **{
        name: binary
        for name in (
            "add subtract multiply divide remainder maximum minimum power atan2 and or xor "
            "shift-left shift-right-arithmetic shift-right-logical complex"
        ).split()
    },
    "compare": compare,
    "convert": convert,
    "bitcast-convert": bitcast_convert,
    "select": select,
    "clamp": clamp,
    "map": map_,
}
