"""while and conditional: called programs with their own buffers (backend/cpu/control_flow.py)."""

from pathlib import Path

import numpy as np
import pytest

from backend_helpers import check_against_evaluator, module, reducer

WHILE_COMPS = """
cond {
  s = (s32[], f32[8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(10)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  s = (s32[], f32[8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[8] get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  h = f32[] constant(0.5)
  hb = f32[8] broadcast(h), dimensions={}
  c = f32[8] cosine(x)
  y = f32[8] multiply(c, hb)
  z = f32[8] add(x, y)
  ROOT t = (s32[], f32[8]) tuple(j, z)
}
"""


@pytest.mark.parametrize("pipeline", ["none", "default"])
def test_while_loop_with_tuple_state(pipeline):
    text = module("""
        x = f32[8] parameter(0)
        zero = s32[] constant(0)
        init = (s32[], f32[8]) tuple(zero, x)
        w = (s32[], f32[8]) while(init), condition=cond, body=body
        r = f32[8] get-tuple-element(w), index=1
    """, WHILE_COMPS)
    check_against_evaluator(text, [np.linspace(-3, 3, 8).astype(np.float32)], rtol=1e-5, atol=1e-6, pipeline=pipeline)


def test_while_that_never_runs_returns_its_input():
    text = module("""
        x = f32[8] parameter(0)
        ten = s32[] constant(10)
        init = (s32[], f32[8]) tuple(ten, x)
        w = (s32[], f32[8]) while(init), condition=cond, body=body
    """, WHILE_COMPS)
    check_against_evaluator(text, [np.arange(8, dtype=np.float32)], rtol=0, atol=0)


BRANCHES = reducer("add", "add", "f32") + """
b0 {
  p = f32[4,6] parameter(0)
  ROOT n = f32[4,6] negate(p)
}

b1 {
  p = f32[4,6] parameter(0)
  z = f32[] constant(0)
  s = f32[4] reduce(p, z), dimensions={1}, to_apply=add
  ROOT b = f32[4,6] broadcast(s), dimensions={0}
}

b2 {
  p = f32[4,6] parameter(0)
  ROOT e = f32[4,6] exponential(p)
}
"""


@pytest.mark.parametrize("index", [0, 1, 2, 7, -1])
def test_conditional_by_index(index):
    """branch_computations by an s32 index; out of range runs the last branch (XLA's rule)."""
    text = module("""
        i = s32[] parameter(0)
        x = f32[4,6] parameter(1)
        c = f32[4,6] conditional(i, x, x, x), branch_computations={b0, b1, b2}
    """, BRANCHES)
    x = np.random.default_rng(index % 5).standard_normal((4, 6)).astype(np.float32)
    check_against_evaluator(text, [np.int32(index), x], rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("flag", [True, False])
def test_conditional_by_pred(flag):
    text = module("""
        p = pred[] parameter(0)
        x = f32[4,6] parameter(1)
        c = f32[4,6] conditional(p, x, x), true_computation=b0, false_computation=b2
    """, BRANCHES)
    x = np.linspace(-1, 1, 24).astype(np.float32).reshape(4, 6)
    check_against_evaluator(text, [np.bool_(flag), x], rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("pipeline", ["none", "default"])
def test_same_instruction_names_in_two_branches(pipeline):
    """Names need only be unique within a computation: two branches that both say `ROOT d`
    (and a while in each called `w`) still get kernels and programs of their own."""
    loop = """
c{k} {{
  s = (s32[], f32[8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant({k})
  ROOT lt = pred[] compare(i, n), direction=LT
}}
b{k} {{
  s = (s32[], f32[8]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  x = f32[8] get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  d = f32[8] add(x, x)
  ROOT t = (s32[], f32[8]) tuple(j, d)
}}
branch{k} {{
  p = f32[8] parameter(0)
  zero = s32[] constant(0)
  init = (s32[], f32[8]) tuple(zero, p)
  w = (s32[], f32[8]) while(init), condition=c{k}, body=b{k}
  ROOT d = f32[8] get-tuple-element(w), index=1
}}
"""
    text = module("""
        c = pred[] parameter(0)
        x = f32[8] parameter(1)
        r = f32[8] conditional(c, x, x), true_computation=branch2, false_computation=branch3
    """, loop.format(k=2) + loop.format(k=3))
    x = np.linspace(-1, 1, 8, dtype=np.float32)
    for pred in (True, False):
        check_against_evaluator(text, [np.array(pred), x], pipeline=pipeline)


PASS_AND_SWAP = (Path(__file__).resolve().parents[1] / "hlo_samples" / "loop_pass_and_swap.hlo").read_text()


@pytest.mark.parametrize("pipeline", ["none", "default"])
def test_loop_state_passed_through_and_swapped(pipeline):
    """Leaf 3 is returned as is (it is its own next state, no copy), leaves 1 and 2 trade
    places every iteration (each needs its own next buffer, or one would clobber the other)."""
    a, b, k = (np.linspace(-1, 1, 8, dtype=np.float32) * (m + 1) for m in range(3))
    check_against_evaluator(PASS_AND_SWAP, [a, b, k], pipeline=pipeline)
