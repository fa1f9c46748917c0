"""The HLO that tracing produces: JAX's shapes of lowering (reduce regions, broadcasts,
variadic argmax, reduce-window cumsum, gather, batched dot) and XLA-style source metadata."""

from __future__ import annotations

import os

import numpy as np

from hloscope import jit
from hloscope.frontend import cond, fori_loop

X = np.zeros((128, 256), np.float32)


def opcodes(module, comp=None):
    comp = module.entry_computation if comp is None else module.computation(comp)
    return [i.opcode for i in comp.instructions]


def softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def test_sum_is_a_reduce_with_an_add_region_named_like_jax():
    m = jit(lambda x: x.sum(axis=1)).lower(X)
    (reduce,) = [i for i in m.entry_computation if i.opcode == "reduce"]
    assert reduce.attr("dimensions") == (1,)
    region = m.computation(reduce.attr("to_apply"))
    assert region.name.startswith("region_0.")
    assert region.root_instruction.opcode == "add"


def test_softmax_lowers_to_max_broadcast_subtract_exp_sum_divide():
    ops = [o for o in opcodes(jit(softmax).lower(X)) if o not in ("parameter", "constant", "reshape")]
    assert ops == ["reduce", "broadcast", "subtract", "exponential", "reduce", "broadcast", "divide"]
    m = jit(softmax).lower(X)
    regions = [m.computation(i.attr("to_apply")).root_instruction.opcode
               for i in m.entry_computation if i.opcode == "reduce"]
    assert regions == ["maximum", "add"]


def test_broadcasting_uses_broadcast_dimensions_and_keepdims_a_reshape():
    m = jit(lambda x, b: x.sum(axis=1, keepdims=True) + b).lower(X, np.zeros(256, np.float32))
    bcasts = {i.operands[0]: i.attr("dimensions") for i in m.entry_computation if i.opcode == "broadcast"}
    assert bcasts["b"] == (1,)
    assert any(i.opcode == "reshape" and i.shape.dims == (128, 1) for i in m.entry_computation)


def test_argmax_is_a_variadic_reduce_with_an_iota_like_the_corpus():
    m = jit(lambda x: np.argmax(x, axis=1)).lower(X)
    (reduce,) = [i for i in m.entry_computation if i.opcode == "reduce"]
    assert len(reduce.operands) == 4 and reduce.shape.is_tuple
    assert "iota" in opcodes(m)
    region = m.computation(reduce.attr("to_apply"))
    assert [p.shape.dtype for p in region.parameters] == ["f32", "s64", "f32", "s64"]
    assert region.root_instruction.opcode == "tuple"


def test_cumsum_is_a_reduce_window_over_the_padded_axis():
    m = jit(lambda x: np.cumsum(x, axis=1)).lower(np.zeros((32, 64), np.float32))
    (rw,) = [i for i in m.entry_computation if i.opcode == "reduce-window"]
    window = rw.attr("window")
    assert [w.size for w in window] == [1, 64]
    assert [(w.pad_low, w.pad_high) for w in window] == [(0, 0), (63, 0)]


def test_integer_array_indexing_is_a_gather_like_the_corpus():
    m = jit(lambda x, idx: x[idx]).lower(np.zeros((64, 32), np.float32), np.zeros(16, np.int32))
    (g,) = [i for i in m.entry_computation if i.opcode == "gather"]
    assert g.attr("offset_dims") == (1,)
    assert g.attr("collapsed_slice_dims") == (0,) and g.attr("start_index_map") == (0,)
    assert g.attr("index_vector_dim") == 1 and g.attr("slice_sizes") == (1, 32)


def test_batched_matmul_is_a_dot_with_batch_dims():
    a, b = np.zeros((4, 32, 16), np.float32), np.zeros((4, 16, 32), np.float32)
    (dot,) = [i for i in jit(lambda a, b: a @ b).lower(a, b).entry_computation if i.opcode == "dot"]
    assert dot.attr("lhs_batch_dims") == (0,) and dot.attr("rhs_batch_dims") == (0,)
    assert dot.attr("lhs_contracting_dims") == (2,) and dot.attr("rhs_contracting_dims") == (1,)


def test_negative_step_slice_is_reverse_then_slice():
    m = jit(lambda x: x[::-2, 1:5]).lower(np.zeros((8, 8), np.float32))
    assert [o for o in opcodes(m) if o != "parameter"] == ["reverse", "slice"]


def test_every_instruction_carries_xla_metadata_pointing_at_this_file():
    def f(x, t):
        y = softmax(x) * 2.0
        return cond(t > 0, lambda y: y + 1, lambda y: fori_loop(0, 3, lambda i, v: v * 0.5 + x[0, 0], y), y)

    m = jit(f).lower(X, np.float32(1))
    for comp, inst in m.all_instructions():
        md = inst.metadata
        assert md is not None, f"{inst.name} in {comp.name} has no metadata"
        assert md.op_name.startswith("jit(f)"), md.op_name
        assert os.path.basename(md.source_file) == os.path.basename(__file__)
        assert isinstance(md.source_line, int)
    names = {i.metadata.op_name for _, i in m.all_instructions()}
    assert "jit(f)/exp" in names and "jit(f)/cond" in names
    assert any(n.startswith("jit(f)/cond/branch_0/while/body/") for n in names)


def test_metadata_line_is_the_users_line():
    def f(x):
        a = x + 1.0
        return np.sin(a)  # the sine's line

    m = jit(f).lower(X)
    (sine,) = [i for i in m.entry_computation if i.opcode == "sine"]
    line = f.__code__.co_firstlineno + 2
    assert sine.metadata.source_line == line
    assert sine.metadata.op_name == "jit(f)/sin"


def test_cond_is_a_conditional_with_false_branch_first():
    m = jit(lambda x, t: cond(t > 0, np.sin, np.cos, x)).lower(X, np.float32(0))
    (c,) = [i for i in m.entry_computation if i.opcode == "conditional"]
    first, second = (m.computation(n) for n in c.attr("branch_computations"))
    assert "cosine" in [i.opcode for i in first] and "sine" in [i.opcode for i in second]
    assert m.entry_computation[c.operands[0]].shape.dtype == "s32"


def test_fori_loop_is_a_while_over_a_tuple_carry():
    m = jit(lambda x: fori_loop(0, 8, lambda i, v: v * 0.9 + np.sin(v), x)).lower(X)
    (w,) = [i for i in m.entry_computation if i.opcode == "while"]
    assert w.shape.is_tuple and len(w.shape.elements) == 2
    body = m.computation(w.attr("body"))
    assert body.parameters[0].shape.is_tuple
    assert body.root_instruction.opcode == "tuple"
    assert m.computation(w.attr("condition")).root_instruction.shape.dtype == "pred"


def test_constants_made_for_control_flow_and_outputs_carry_the_right_op_name():
    def f(x):
        y = fori_loop(0, 2, lambda i, v: v + 1, x)
        return y, np.float32(3)

    m = jit(f).lower(X)
    consts = {i.literal.value.item(): i.metadata.op_name for i in m.entry_computation
              if i.opcode == "constant" and i.shape.rank == 0}
    assert consts == {0: "jit(f)/fori_loop", 3.0: "jit(f)/output"}
