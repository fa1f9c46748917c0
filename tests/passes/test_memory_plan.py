"""Memory planning: liveness, in-place reuse, aliasing and best-fit placement."""

from __future__ import annotations

import itertools
import time

import pytest
from pass_helpers import GOLDEN, corpus_case, corpus_cases

from hloscope import parse_hlo
from hloscope.memory import plan_memory
from hloscope.memory.heap import Interval, best_fit
from hloscope import optimize

CHAIN = """HloModule chain

ENTRY main {
  x = f32[256] parameter(0)
  c = f32[] constant(2)
  a = f32[256] negate(x)
  b = f32[256] exponential(a)
  cb = f32[256] broadcast(c), dimensions={}
  d = f32[256] multiply(b, cb)
  r = f32[16,16] reshape(d)
  ROOT t = (f32[16,16], f32[256]) tuple(r, x)
}
"""


def assert_no_overlap(plan) -> None:
    """Buffers alive at the same time never share a byte of the arena."""
    arena = [b for b in plan.buffers if b.in_arena and b.size]
    for p, q in itertools.combinations(arena, 2):
        if p.start <= q.end and q.start <= p.end:
            assert p.offset + p.size <= q.offset or q.offset + q.size <= p.offset, (p.name, q.name)
        assert p.offset % plan.alignment == 0


def test_an_elementwise_chain_runs_in_one_buffer():
    plan = plan_memory(parse_hlo(CHAIN))
    chain = plan.by_instruction("d")
    assert chain.values == ("a", "b", "d") and chain.in_place_of == {"b": "a", "d": "b"}
    assert chain.kind == "output" and "r" in chain.aliases  # the reshape is a bitcast of d
    assert plan.by_instruction("r") is chain
    assert plan.by_instruction("t") is chain  # a tuple: the buffer of its first element
    assert plan.peak_bytes == 2 * 1024  # the chain, and the broadcast of c
    assert plan.naive_bytes == 4 * 1024  # a, b, cb and d each in its own buffer
    assert plan.min_bytes <= plan.peak_bytes <= plan.naive_bytes


def test_parameters_constants_and_outputs_are_classified():
    plan = plan_memory(parse_hlo(CHAIN))
    x, c = plan.by_instruction("x"), plan.by_instruction("c")
    assert (x.kind, x.offset, x.start, x.end) == ("parameter", None, 0, len(plan.schedule) - 1)
    assert (c.kind, c.offset) == ("constant", None)
    assert plan.by_instruction("cb").kind == "temporary"
    assert plan.schedule[0] == "x" and len(plan.schedule) == 8
    assert {b.name for b in plan.live_at(4)} >= {"x", "cb", "a"}


def test_text_and_html():
    plan = plan_memory(parse_hlo(CHAIN))
    text = str(plan)
    assert text.startswith("MemoryPlan of main: 8 instructions, arena 2,048 bytes (lower bound 2,048, naive 4,096)")
    assert "a -> b -> d  (aliased by r, t)" in text
    assert "<table" in plan._repr_html_()


def test_no_in_place_reuse_when_the_operand_lives_on():
    text = CHAIN.replace("ROOT t = (f32[16,16], f32[256]) tuple(r, x)", "ROOT t = (f32[16,16], f32[256]) tuple(r, a)")
    plan = plan_memory(parse_hlo(text))
    assert plan.by_instruction("b").name == "b"  # a is an output: b cannot overwrite it
    assert plan.by_instruction("a").kind == "output"


@pytest.mark.parametrize("pipeline", ["none", "default"])
@pytest.mark.parametrize("name", sorted(corpus_cases()))
def test_corpus_plans_are_consistent(name, pipeline):
    module, *_ = corpus_case(name)
    plan = optimize(module, pipeline).memory_plan
    assert_no_overlap(plan)
    assert plan.min_bytes <= plan.peak_bytes <= plan.naive_bytes
    assert plan.by_instruction(module.entry_computation.parameters[0].name).kind == "parameter"
    root = optimize(module, pipeline).module.entry_computation.root
    assert plan.by_instruction(root).kind in ("output", "parameter")


def test_best_fit_reuses_holes():
    offsets, size = best_fit([Interval(0, 0, 1, 256), Interval(1, 0, 4, 128), Interval(2, 2, 4, 200)], 64)
    assert offsets == {0: 0, 1: 256, 2: 0} and size == 384


def test_twenty_thousand_instructions_plan_quickly():
    lines = ["HloModule big", "", "ENTRY main {", "  p = f32[64] parameter(0)", "  q = f32[64] parameter(1)"]
    prev = ["p", "q"]
    for i in range(20_000):
        op = ("add", "multiply", "subtract", "maximum")[i % 4]
        lines.append(f"  v{i} = f32[64] {op}({prev[-1]}, {prev[-1 - (i * 7919) % min(len(prev), 40)]})")
        prev.append(f"v{i}")
    lines += [f"  ROOT r = f32[64] negate({prev[-1]})", "}"]
    module = parse_hlo("\n".join(lines) + "\n")
    start = time.perf_counter()
    plan = plan_memory(module)
    assert time.perf_counter() - start < 20
    assert plan.peak_bytes <= plan.naive_bytes


def test_tuple_elements_have_their_own_buffers():
    """A multi-output fusion's results are separate buffers, so the divide after softmax's
    exp-and-sum fusion can overwrite the exp element in place (as XLA's does)."""
    plan = plan_memory(parse_hlo((GOLDEN / "multi_output_fusion" / "softmax.after.hlo").read_text()))
    exp = plan.by_instruction("get-tuple-element.2")
    assert exp.label == "exponential_reduce_fusion{1}" and exp.index == (1,)
    assert exp.values == ("exponential_reduce_fusion", "broadcast_divide_fusion") and exp.kind == "output"
    assert plan.by_instruction("get-tuple-element.1").index == (0,)
    assert_no_overlap(plan)
