"""infer_shape: one result per op family, and the errors XLA's ShapeInference would give."""

import pytest

from hloscope.ir.attributes import PadDim, SliceDim, WindowDim
from hloscope.ir.builder import ModuleBuilder
from hloscope.ir.shape import ArrayShape, TupleShape, array, scalar
from hloscope.ir.shape_inference import ShapeRuleError, compatible, fmt, infer_shape

F = "f32"


def s(text_dims, dtype=F):
    return ArrayShape(dtype, tuple(text_dims))


def infer(opcode, shapes, module=None, declared=None, **attrs):
    return infer_shape(opcode, shapes, attrs, module, declared)


def assert_shape(got, dtype, *dims):
    assert isinstance(got, ArrayShape) and (got.dtype, got.dims) == (dtype, dims), fmt(got)


def raises(match, opcode, shapes, module=None, declared=None, **attrs):
    with pytest.raises(ShapeRuleError, match=match):
        infer(opcode, shapes, module, declared, **attrs)


@pytest.fixture(scope="module")
def comps():
    """Computations that the calling ops below refer to."""
    mb = ModuleBuilder("callees")
    mb.scalar_reducer("add", F)
    mb.scalar_reducer("add", "s32")
    cb = mb.computation("argmax")  # (f32, s32, f32, s32) -> (f32, s32)
    a, i, b, j = (cb.parameter(scalar(t)) for t in (F, "s32", F, "s32"))
    gt = cb.compare(a, b, "GT")
    cb.build(cb.tuple(cb.select(gt, a, b), cb.select(gt, i, j)))
    cb = mb.computation("greater_equal")
    x, y = cb.parameter(scalar(F)), cb.parameter(scalar(F))
    cb.build(cb.compare(x, y, "GE"))
    cb = mb.computation("less")
    x, y = cb.parameter(scalar(F)), cb.parameter(scalar(F))
    cb.build(cb.compare(x, y, "LT"))
    cb = mb.computation("body")
    cb.build(cb.negate(cb.parameter(array(F, 3))))
    cb = mb.computation("cond")
    cb.parameter(array(F, 3))
    cb.build(cb.constant(True))
    return mb.computations


# ---- elementwise ----


def test_binary_and_unary_keep_the_shape():
    assert_shape(infer("add", [s([2, 3]), s([2, 3])]), F, 2, 3)
    assert_shape(infer("tanh", [s([4])]), F, 4)
    assert_shape(infer("is-finite", [s([4])]), "pred", 4)


def test_binary_operand_mismatch():
    raises(r"operand shapes f32\[2\] and f32\[3\] differ", "add", [s([2]), s([3])])
    raises("element types differ", "add", [s([2]), s([2], "s32")])


def test_op_kinds_are_checked():
    raises("tanh needs a floating-point element type", "tanh", [s([2], "s32")])
    raises("and needs a pred or integer", "and", [s([2]), s([2])])
    raises("shift-left needs an integer", "shift-left", [s([2]), s([2])])


def test_compare_gives_pred_and_checks_direction():
    assert_shape(infer("compare", [s([2]), s([2])], direction="LT"), "pred", 2)
    raises("compare direction XX", "compare", [s([2]), s([2])], direction="XX")
    raises("needs the attribute direction", "compare", [s([2]), s([2])])


def test_convert_takes_the_declared_type():
    assert_shape(infer("convert", [s([2, 3])], declared=s([2, 3], "s32")), "s32", 2, 3)
    raises("convert cannot change dimensions", "convert", [s([2, 3])], declared=s([6], "s32"))
    raises("needs its result shape to be given", "convert", [s([2])])


def test_bitcast_convert_widths():
    assert_shape(infer("bitcast-convert", [s([2])], declared=s([], "s32")), "s32", 2)
    assert_shape(infer("bitcast-convert", [s([2], "f64")], declared=s([], "s32")), "s32", 2, 2)
    assert_shape(infer("bitcast-convert", [s([2, 2], "s32")], declared=s([], "f64")), "f64", 2)


def test_select_and_clamp():
    assert_shape(infer("select", [s([2], "pred"), s([2]), s([2])]), F, 2)
    assert_shape(infer("select", [s([], "pred"), s([2]), s([2])]), F, 2)
    raises("select predicate must be pred", "select", [s([2]), s([2]), s([2])])
    raises("select branches differ", "select", [s([2], "pred"), s([2]), s([3])])
    assert_shape(infer("clamp", [s([]), s([5]), s([])]), F, 5)
    raises("clamp max", "clamp", [s([]), s([5]), s([4])])


# ---- data movement ----


def test_broadcast():
    assert_shape(infer("broadcast", [s([3])], declared=s([2, 3]), dimensions=(1,)), F, 2, 3)
    raises(
        r"operand dimension 0 \(size 3\) to output dimension 0 \(size 2\)",
        "broadcast",
        [s([3])],
        declared=s([2, 3]),
        dimensions=(0,),
    )
    raises(
        "one entry per operand dimension", "broadcast", [s([3])], declared=s([2, 3]), dimensions=()
    )


def test_reshape_keeps_the_element_count():
    assert_shape(infer("reshape", [s([2, 6])], declared=s([3, 4])), F, 3, 4)
    raises("cannot change the element count", "reshape", [s([2, 6])], declared=s([5]))


def test_transpose():
    assert_shape(infer("transpose", [s([2, 3, 4])], dimensions=(2, 0, 1)), F, 4, 2, 3)
    raises("not a permutation", "transpose", [s([2, 3])], dimensions=(0, 0))


def test_slice():
    spec = (SliceDim(0, 4, 1), SliceDim(1, 8, 3))
    assert_shape(infer("slice", [s([4, 8])], slice=spec), F, 4, 3)
    raises("out of bounds", "slice", [s([4, 8])], slice=(SliceDim(0, 5), SliceDim(0, 8)))
    raises("stride 0", "slice", [s([4])], slice=(SliceDim(0, 4, 0),))


def test_dynamic_slice_and_update():
    idx = s([], "s32")
    assert_shape(infer("dynamic-slice", [s([8, 8]), idx, idx], dynamic_slice_sizes=(2, 8)), F, 2, 8)
    raises("does not fit", "dynamic-slice", [s([8, 8]), idx, idx], dynamic_slice_sizes=(9, 8))
    raises(
        "needs 2 scalar start indices",
        "dynamic-slice",
        [s([8, 8]), idx],
        dynamic_slice_sizes=(2, 8),
    )
    assert_shape(infer("dynamic-update-slice", [s([8, 8]), s([2, 8]), idx, idx]), F, 8, 8)
    raises("larger than", "dynamic-update-slice", [s([8, 8]), s([9, 8]), idx, idx])


def test_concatenate():
    assert_shape(infer("concatenate", [s([2, 3]), s([2, 5])], dimensions=(1,)), F, 2, 8)
    raises("differ outside dimension 1", "concatenate", [s([2, 3]), s([3, 5])], dimensions=(1,))


def test_pad_with_negative_and_interior():
    pads = (PadDim(1, 2, 0), PadDim(-1, 0, 1))
    # dim 0: 1 + 2 + 4 = 7; dim 1: -1 + 0 + 3 + 2*1 = 4
    assert_shape(infer("pad", [s([4, 3]), s([])], padding=pads), F, 7, 4)
    raises("negative", "pad", [s([2]), s([])], padding=(PadDim(-3, 0),))
    raises("pad value", "pad", [s([2]), s([1])], padding=(PadDim(0, 0),))


def test_iota_bitcast_tuple():
    assert_shape(infer("iota", [], declared=s([3, 4], "s32"), iota_dimension=1), "s32", 3, 4)
    raises("iota_dimension 2", "iota", [], declared=s([3, 4], "s32"), iota_dimension=2)
    assert_shape(infer("bitcast", [s([16])], declared=s([4, 4])), F, 4, 4)
    raises("byte size", "bitcast", [s([16])], declared=s([4, 5]))
    t = infer("tuple", [s([2]), s([], "s32")])
    assert t == TupleShape((s([2]), s([], "s32")))
    assert_shape(infer("get-tuple-element", [t], index=1), "s32")
    raises("index 2 is out of range", "get-tuple-element", [t], index=2)


# ---- reductions, windows ----


def test_reduce(comps):
    out = infer("reduce", [s([4, 8]), s([])], comps, dimensions=(1,), to_apply="region_add_f32")
    assert_shape(out, F, 4)
    out = infer(
        "reduce",
        [s([4, 8]), s([4, 8], "s32"), s([]), s([], "s32")],
        comps,
        dimensions=(1,),
        to_apply="argmax",
    )
    assert compatible(out, TupleShape((s([4]), s([4], "s32"))))


def test_reduce_with_wrong_reducer(comps):
    raises(
        "reducer region_add_s32 parameter 0 is s32",
        "reduce",
        [s([4, 8]), s([])],
        comps,
        dimensions=(1,),
        to_apply="region_add_s32",
    )
    raises(
        "reducer argmax takes 4 parameters, expected 2",
        "reduce",
        [s([4, 8]), s([])],
        comps,
        dimensions=(1,),
        to_apply="argmax",
    )
    raises(
        "computation nope does not exist",
        "reduce",
        [s([4]), s([])],
        comps,
        dimensions=(0,),
        to_apply="nope",
    )


def test_reduce_window(comps):
    window = (WindowDim(1), WindowDim(64, pad_low=63))  # a cumulative sum along dim 1
    out = infer(
        "reduce-window", [s([32, 64]), s([])], comps, window=window, to_apply="region_add_f32"
    )
    assert_shape(out, F, 32, 64)
    window = (WindowDim(2, stride=2), WindowDim(3, stride=1, lhs_dilate=2))
    out = infer(
        "reduce-window", [s([8, 5]), s([])], comps, window=window, to_apply="region_add_f32"
    )
    assert_shape(out, F, 4, 7)  # dim 1: dilated base 9, window 3 -> 7


def test_sort(comps):
    assert_shape(infer("sort", [s([4, 8])], comps, dimensions=(1,), to_apply="less"), F, 4, 8)
    raises(
        "comparator less takes 2 parameters, expected 4",
        "sort",
        [s([4]), s([4])],
        comps,
        dimensions=(0,),
        to_apply="less",
    )


def test_map(comps):
    assert_shape(
        infer("map", [s([3]), s([3])], comps, dimensions=(0,), to_apply="region_add_f32"), F, 3
    )


# ---- dot, gather, scatter ----


def test_dot_general_dimension_order():
    lhs, rhs = s([5, 2, 3]), s([5, 3, 7])
    attrs = dict(
        lhs_batch_dims=(0,),
        rhs_batch_dims=(0,),
        lhs_contracting_dims=(2,),
        rhs_contracting_dims=(1,),
    )
    assert_shape(infer("dot", [lhs, rhs], **attrs), F, 5, 2, 7)
    assert_shape(infer("dot", [s([4]), s([6])]), F, 4, 6)  # outer product


def test_dot_errors():
    raises(
        r"contracting dimension sizes differ: lhs f32\[2,3\] dimension 1 is 3",
        "dot",
        [s([2, 3]), s([4, 5])],
        lhs_contracting_dims=(1,),
        rhs_contracting_dims=(0,),
    )
    raises(
        "2 rhs contracting",
        "dot",
        [s([2, 3]), s([3, 3])],
        lhs_contracting_dims=(1,),
        rhs_contracting_dims=(0, 1),
    )


def test_dot_preferred_type():
    out = infer(
        "dot",
        [s([2, 3], "s8"), s([3], "s8")],
        declared=s([2], "s32"),
        lhs_contracting_dims=(1,),
        rhs_contracting_dims=(0,),
    )
    assert_shape(out, "s32", 2)


GATHER_ROWS = dict(
    offset_dims=(1,),
    collapsed_slice_dims=(0,),
    start_index_map=(0,),
    index_vector_dim=1,
    slice_sizes=(1, 32),
)


def test_gather():
    assert_shape(infer("gather", [s([64, 32]), s([16, 1], "s32")], **GATHER_ROWS), F, 16, 32)
    # The corpus form: nothing collapsed, implicit index vector dim.
    out = infer(
        "gather",
        [s([64, 32]), s([16], "s32")],
        offset_dims=(1, 2),
        collapsed_slice_dims=(),
        start_index_map=(0,),
        index_vector_dim=1,
        slice_sizes=(1, 32),
    )
    assert_shape(out, F, 16, 1, 32)


def test_gather_errors():
    bad = dict(GATHER_ROWS, slice_sizes=(2, 32))
    raises(
        "collapses dimension 0 whose slice size is 2",
        "gather",
        [s([64, 32]), s([16, 1], "s32")],
        **bad,
    )
    raises("indices must be integers", "gather", [s([64, 32]), s([16, 1])], **GATHER_ROWS)


def test_scatter(comps):
    attrs = dict(
        update_window_dims=(1,),
        inserted_window_dims=(0,),
        scatter_dims_to_operand_dims=(0,),
        index_vector_dim=1,
        to_apply="region_add_f32",
    )
    out = infer("scatter", [s([64, 32]), s([16, 1], "s32"), s([16, 32])], comps, **attrs)
    assert_shape(out, F, 64, 32)
    raises(
        "must match the index batch dims",
        "scatter",
        [s([64, 32]), s([16, 1], "s32"), s([15, 32])],
        comps,
        **attrs,
    )


# ---- calls, control flow ----


def test_call_while_conditional(comps):
    assert_shape(infer("call", [s([3])], comps, to_apply="body"), F, 3)
    raises(
        "parameter 0 is f32\\[3\\], expected f32\\[4\\]", "call", [s([4])], comps, to_apply="body"
    )
    assert_shape(infer("while", [s([3])], comps, condition="cond", body="body"), F, 3)
    out = infer(
        "conditional",
        [s([], "pred"), s([3]), s([3])],
        comps,
        true_computation="body",
        false_computation="body",
    )
    assert_shape(out, F, 3)
    raises(
        "while condition body returns f32\\[3\\], expected pred",
        "while",
        [s([3])],
        comps,
        condition="body",
        body="body",
    )


def test_unknown_opcode():
    raises("opcode frobnicate is unknown", "frobnicate", [])


def test_select_and_scatter(comps):
    window = (WindowDim(2, stride=2), WindowDim(2, stride=2))  # max-pool gradient
    attrs = dict(window=window, select="greater_equal", scatter="region_add_f32")
    out = infer("select-and-scatter", [s([4, 6]), s([2, 3]), s([])], comps, **attrs)
    assert_shape(out, F, 4, 6)
    raises(
        r"source f32\[2,2\] must be f32\[2,3\]",
        "select-and-scatter",
        [s([4, 6]), s([2, 2]), s([])],
        comps,
        **attrs,
    )


def test_copy_passes_tuples_through():
    t = TupleShape((s([2]), s([], "s32")))
    assert infer("copy", [t]) == t


def test_every_opcode_has_a_rule():
    from hloscope.ir.opcodes import OPCODES
    from hloscope.ir.shape_inference import RULES

    assert set(RULES) == set(OPCODES)
