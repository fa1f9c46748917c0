"""The builder: computations written in Python, shapes inferred, names unique, text like XLA's."""

import numpy as np
import pytest

from hloscope.errors import HloVerifierError
from hloscope.ir.attributes import Metadata
from hloscope.ir.builder import ModuleBuilder, make_window
from hloscope.ir.parser import parse_hlo
from hloscope.ir.shape import ArrayShape, TupleShape, array, scalar
from hloscope.ir.shape_inference import ShapeRuleError, fmt


def dims(inst):
    return fmt(inst.shape)


def softmax_module():
    mb = ModuleBuilder("softmax")
    add, mx = mb.scalar_reducer("add", "f32"), mb.scalar_reducer("maximum", "f32")
    with mb.computation("main") as cb:
        x = cb.parameter(array("f32", 4, 8), name="x")
        m = cb.reduce(x, cb.constant(-np.inf, "f32"), [1], mx)
        e = cb.exponential(cb.subtract(x, cb.broadcast(m, (4, 8), (0,))))
        s = cb.reduce(e, cb.constant(0, "f32"), [1], add)
        main = cb.build(cb.divide(e, cb.broadcast(s, (4, 8), (0,))))
    return mb.build(main)


SOFTMAX_TEXT = """\
HloModule softmax, entry_computation_layout={(f32[4,8]{1,0})->f32[4,8]{1,0}}

%region_add_f32 (parameter.1: f32[], parameter.2: f32[]) -> f32[] {
  %parameter.1 = f32[] parameter(0)
  %parameter.2 = f32[] parameter(1)
  ROOT %add.1 = f32[] add(%parameter.1, %parameter.2)
}

%region_maximum_f32 (parameter.3: f32[], parameter.4: f32[]) -> f32[] {
  %parameter.3 = f32[] parameter(0)
  %parameter.4 = f32[] parameter(1)
  ROOT %maximum.1 = f32[] maximum(%parameter.3, %parameter.4)
}

ENTRY %main (x: f32[4,8]{1,0}) -> f32[4,8]{1,0} {
  %x = f32[4,8]{1,0} parameter(0)
  %constant.1 = f32[] constant(-inf)
  %reduce.1 = f32[4]{0} reduce(%x, %constant.1), dimensions={1}, to_apply=%region_maximum_f32
  %broadcast.1 = f32[4,8]{1,0} broadcast(%reduce.1), dimensions={0}
  %subtract.1 = f32[4,8]{1,0} subtract(%x, %broadcast.1)
  %exponential.1 = f32[4,8]{1,0} exponential(%subtract.1)
  %constant.2 = f32[] constant(0)
  %reduce.2 = f32[4]{0} reduce(%exponential.1, %constant.2), dimensions={1}, to_apply=%region_add_f32
  %broadcast.2 = f32[4,8]{1,0} broadcast(%reduce.2), dimensions={0}
  ROOT %divide.1 = f32[4,8]{1,0} divide(%exponential.1, %broadcast.2)
}
"""


def test_softmax_prints_like_xla():
    module = softmax_module()
    assert module.to_text().strip() == SOFTMAX_TEXT.strip()


def test_softmax_round_trips_through_the_parser():
    module = softmax_module()
    again = parse_hlo(module.to_text())
    again.verify()
    assert again.to_text() == module.to_text()


def test_structure_callees_first_and_entry_last():
    module = softmax_module()
    assert [c.name for c in module.computations] == ["region_add_f32", "region_maximum_f32", "main"]
    main = module.entry_computation
    assert main.root == "divide.1"
    assert main["reduce.1"].operands == ("x", "constant.1")
    assert main["reduce.1"].attr("to_apply") == "region_maximum_f32"


def test_names_are_opcode_dot_n_and_unique_in_the_module():
    mb = ModuleBuilder("names")
    with mb.computation("f") as cb:
        a = cb.parameter(scalar("f32"))
        b = cb.add(a, a)
        c = cb.add(b, a, name="add.1")  # taken: gets the next free name
        d = cb.negate(c, name="total")
    assert (a.name, b.name, c.name, d.name) == ("parameter.1", "add.1", "add.2", "total")
    with mb.computation("g") as cb:
        assert cb.add(cb.parameter(scalar("f32")), cb.constant(1.0, "f32")).name == "add.3"
    with pytest.raises(ValueError, match="not a valid HLO name"):
        ModuleBuilder("m").computation("f").parameter(scalar("f32"), name="has space")


def test_unused_computations_still_come_before_the_entry():
    mb = ModuleBuilder("order")
    with mb.computation("main") as cb:
        main = cb.build(cb.parameter(scalar("f32")))
    mb.scalar_reducer("add", "f32")
    assert [c.name for c in mb.build(main).computations] == ["region_add_f32", "main"]


def test_shape_error_names_the_op_and_operand_shapes():
    cb = ModuleBuilder("m").computation("main")
    a, b = cb.parameter(array("f32", 2)), cb.parameter(array("f32", 3))
    with pytest.raises(ShapeRuleError) as info:
        cb.add(a, b)
    assert (
        str(info.value)
        == "in computation main: add(f32[2], f32[3]): operand shapes f32[2] and f32[3] differ"
    )
    assert isinstance(info.value, HloVerifierError)


def test_given_shape_is_checked():
    cb = ModuleBuilder("m").computation("main")
    a = cb.parameter(array("f32", 2))
    with pytest.raises(
        ShapeRuleError, match=r"negate\(f32\[2\]\): declared shape f32\[3\] but inferred f32\[2\]"
    ):
        cb.negate(a, shape=array("f32", 3))
    kept = cb.negate(a, shape=ArrayShape("f32", (2,), (0,)))
    assert kept.shape.layout == (0,)


def test_foreign_handle_is_rejected():
    mb = ModuleBuilder("m")
    other = mb.computation("other")
    x = other.parameter(scalar("f32"))
    cb = mb.computation("main")
    with pytest.raises(HloVerifierError, match="is not an instruction of this computation"):
        cb.negate(x)


def test_constants_and_parameters():
    cb = ModuleBuilder("m").computation("main")
    assert dims(cb.constant([[1, 2], [3, 4]], "s32")) == "s32[2,2]"
    assert dims(cb.constant(np.float32(1.5))) == "f32[]"
    assert dims(cb.constant(2.0)) == "f64[]"  # numpy's rule for Python floats
    p0, p1 = cb.parameter("f32[3]"), cb.parameter(array("s32", 2))
    assert (p0.parameter_number, p1.parameter_number) == (0, 1)
    assert dims(p0) == "f32[3]"


def test_metadata_defaults_and_overrides():
    cb = ModuleBuilder("m").computation("main")
    x = cb.parameter(scalar("f32"))
    cb.metadata = Metadata((("op_name", "jit(f)/neg"),))
    y = cb.negate(x)
    z = cb.negate(y, metadata={"op_name": "neg", "source_line": 3})
    assert x.metadata is None
    assert y.metadata.op_name == "jit(f)/neg"
    assert z.metadata.op_name == "neg" and z.source_line == 3


# ---- shape inference through the builder ----


@pytest.fixture
def cb():
    return ModuleBuilder("shapes").computation("main")


def test_dot_shapes(cb):
    a, b = cb.parameter(array("f32", 5, 2, 3)), cb.parameter(array("f32", 5, 3, 7))
    out = cb.dot(
        a,
        b,
        lhs_contracting_dims=[2],
        rhs_contracting_dims=[1],
        lhs_batch_dims=[0],
        rhs_batch_dims=[0],
    )
    assert dims(out) == "f32[5,2,7]"
    assert list(out.attrs) == [
        "lhs_batch_dims",
        "lhs_contracting_dims",
        "rhs_batch_dims",
        "rhs_contracting_dims",
    ]
    i8 = cb.parameter(array("s8", 4, 3))
    assert dims(cb.dot(i8, i8, [1], [1], dtype="s32")) == "s32[4,4]"


def test_gather_shape(cb):
    table, idx = cb.parameter(array("f32", 64, 32)), cb.parameter(array("s32", 16, 1))
    out = cb.gather(
        table,
        idx,
        offset_dims=[1],
        collapsed_slice_dims=[0],
        start_index_map=[0],
        index_vector_dim=1,
        slice_sizes=[1, 32],
    )
    assert dims(out) == "f32[16,32]"


def test_reduce_shapes(cb):
    mb = cb.module
    x = cb.parameter(array("f32", 2, 3, 4))
    assert (
        dims(cb.reduce(x, cb.constant(0, "f32"), [0, 2], mb.scalar_reducer("add", "f32")))
        == "f32[3]"
    )


def test_pad_slice_broadcast_transpose_concatenate(cb):
    x = cb.parameter(array("f32", 4, 6))
    zero = cb.constant(0, "f32")
    assert dims(cb.pad(x, zero, [(1, 1), (0, 2, 1)])) == "f32[6,13]"
    assert dims(cb.slice(x, [1, 0], [3, 6], [1, 2])) == "f32[2,3]"
    assert dims(cb.broadcast(x, (7, 4, 6))) == "f32[7,4,6]"
    assert dims(cb.transpose(x, [1, 0])) == "f32[6,4]"
    assert dims(cb.concatenate([x, x, x], 0)) == "f32[12,6]"
    assert dims(cb.reshape(x, [24])) == "f32[24]"
    assert dims(cb.convert(x, "s32")) == "s32[4,6]"
    assert dims(cb.compare(x, x, "GE")) == "pred[4,6]"
    assert dims(cb.iota(array("s32", 5), 0)) == "s32[5]"
    assert dims(cb.bitcast_convert(x, "s32")) == "s32[4,6]"


def test_reduce_window_shape(cb):
    x = cb.parameter(array("f32", 32, 64))
    add = cb.module.scalar_reducer("add", "f32")
    cumsum = cb.reduce_window(
        x, cb.constant(0, "f32"), make_window([1, 64], padding=[(0, 0), (63, 0)]), add
    )
    assert dims(cumsum) == "f32[32,64]"
    pooled = cb.reduce_window(x, cb.constant(0, "f32"), make_window([2, 2], strides=[2, 2]), add)
    assert dims(pooled) == "f32[16,32]"


def test_tuples_calls_and_control_flow():
    mb = ModuleBuilder("control")
    with mb.computation("double") as cb:
        p = cb.parameter(array("f32", 3))
        double = cb.build(cb.add(p, p))
    with mb.computation("cond") as cb:
        p = cb.parameter(TupleShape((scalar("s32"), array("f32", 3))))
        cond = cb.build(cb.compare(cb.get_tuple_element(p, 0), cb.constant(5, "s32"), "LT"))
    with mb.computation("body") as cb:
        p = cb.parameter(TupleShape((scalar("s32"), array("f32", 3))))
        i, v = cb.get_tuple_element(p, 0), cb.get_tuple_element(p, 1)
        body = cb.build(cb.tuple(cb.add(i, cb.constant(1, "s32")), cb.call(double, v)))
    with mb.computation("main") as cb:
        x, flag = cb.parameter(array("f32", 3)), cb.parameter(scalar("pred"))
        loop = cb.while_loop(cond, body, cb.tuple(cb.constant(0, "s32"), x))
        out = cb.get_tuple_element(loop, 1)
        chosen = cb.conditional(flag, [double, double], [out, x])
        assert set(chosen.attrs) == {"true_computation", "false_computation"}
        fused = cb.fusion(double, [chosen])
        main = cb.build(fused)
    module = mb.build(main)
    assert [c.name for c in module.computations] == ["double", "cond", "body", "main"]
    assert dims(loop) == "(s32[], f32[3])"
    assert parse_hlo(module.to_text()).to_text() == module.to_text()


def test_call_with_wrong_arguments():
    mb = ModuleBuilder("m")
    with mb.computation("neg") as cb:
        neg = cb.build(cb.negate(cb.parameter(array("f32", 3))))
    cb = mb.computation("main")
    with pytest.raises(
        ShapeRuleError, match=r"call\(f32\[4\]\): called computation neg parameter 0 is f32\[3\]"
    ):
        cb.call(neg, cb.parameter(array("f32", 4)))


def test_sort_and_scatter():
    mb = ModuleBuilder("m")
    with mb.computation("less") as cb:
        a, b = cb.parameter(scalar("f32")), cb.parameter(scalar("f32"))
        cb.parameter(scalar("s32"))
        cb.parameter(scalar("s32"))
        less = cb.build(cb.compare(a, b, "LT"))
    with mb.computation("main") as cb:
        keys, vals = cb.parameter(array("f32", 8)), cb.parameter(array("s32", 8))
        sorted_ = cb.sort([keys, vals], 0, less, is_stable=True)
        assert dims(sorted_) == "(f32[8], s32[8])"
        idx, upd = cb.parameter(array("s32", 3, 1)), cb.parameter(array("f32", 3))
        out = cb.scatter(keys, idx, upd, [], [0], [0], 1, mb.scalar_reducer("add", "f32"))
        assert dims(out) == "f32[8]"
        main = cb.build(cb.tuple(sorted_, out))
    mb.build(main)


def test_package_docstring_example():
    mb = ModuleBuilder("axpy")
    with mb.computation("main") as cb:
        a = cb.parameter(scalar("f32"))
        x = cb.parameter(array("f32", 8))
        y = cb.add(cb.multiply(cb.broadcast(a, (8,)), x), x)
        main = cb.build(y)
    module = mb.build(main)
    assert module.entry_computation["broadcast.1"].attr("dimensions") == ()
    assert fmt(module.entry_computation.result_shape) == "f32[8]"
