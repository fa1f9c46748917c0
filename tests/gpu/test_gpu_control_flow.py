"""while and conditional on the GPU: the host runs the loop and picks the branch, the kernels
do the work. Run on the CPU emulator against the evaluator, and through ptxas."""

from pathlib import Path

import numpy as np
import pytest

from emulator import emulated_executable
from gpu_helpers import assert_close, assert_matches, compile_gpu, corpus_case, evaluate, module
from hloscope.backend.buffers import ArrayStorage
from hloscope.ir.shape import ArrayShape
from hloscope.backend.gpu.program import Conditional, DeviceCopy, KernelLaunch, WhileLoop, listing, relocate

RNG = np.random.default_rng(11)


def check(text: str, *args, **options):
    exe = emulated_executable(text, **options)
    assert_close(exe(*args), evaluate(text, *args))
    return exe


@pytest.mark.parametrize("pipeline", ["default", "none"])
@pytest.mark.parametrize("name", ["fori_damped", "cond_scalar_pred"])
def test_corpus_control_flow_matches_xla(name, pipeline):
    text, args, outs, case = corpus_case(name)
    assert_matches(emulated_executable(text, pipeline=pipeline)(*args), outs, case)


@pytest.mark.parametrize("name", ["fori_damped", "cond_scalar_pred"])
def test_report_shows_the_host_program(name):
    report = compile_gpu(corpus_case(name)[0], ptxas=False).report
    summary = report.summary()
    assert "host program" in summary and report.program.splitlines()[-1].strip() in summary
    scalars = [k for k in report.kernels if k.extent == 1]  # the loop's compare, its counter
    assert scalars and all(k.block == (32, 1, 1) for k in scalars)  # one warp, not 256 threads
    for k in report.kernels:  # kernels of a loop body or a branch have a target-neutral form too
        assert "define void" in report.neutral_ir(k.name)
        assert "ret" in report.asm("aarch64", k.name)


COUNTED = """
cond.{n} {{
  s = (s32[], f32[16]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant({n})
  ROOT lt = pred[] compare(i, n), direction=LT
}}
"""

NESTED = COUNTED.format(n=3) + COUNTED.format(n=4) + """
inner {
  s = (s32[], f32[16]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  v = f32[16] get-tuple-element(s), index=1
  one = s32[] constant(1)
  c = f32[] convert(i)
  b = f32[16] broadcast(c), dimensions={}
  j = s32[] add(i, one)
  sq = f32[16] multiply(v, v)
  nv = f32[16] add(sq, b)
  ROOT t = (s32[], f32[16]) tuple(j, nv)
}
outer {
  s = (s32[], f32[16]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  v = f32[16] get-tuple-element(s), index=1
  one = s32[] constant(1)
  zero = s32[] constant(0)
  h = f32[] constant(0.5)
  half = f32[16] broadcast(h), dimensions={}
  scaled = f32[16] multiply(v, half)
  init = (s32[], f32[16]) tuple(zero, scaled)
  w = (s32[], f32[16]) while(init), condition=cond.4, body=inner
  j = s32[] add(i, one)
  inner_v = f32[16] get-tuple-element(w), index=1
  ROOT t = (s32[], f32[16]) tuple(j, inner_v)
}
"""


def test_nested_loops():
    text = module("""
        x = f32[16] parameter(0)
        zero = s32[] constant(0)
        init = (s32[], f32[16]) tuple(zero, x)
        w = (s32[], f32[16]) while(init), condition=cond.3, body=outer
        r = f32[16] get-tuple-element(w), index=1
    """, NESTED)
    exe = check(text, RNG.uniform(-1, 1, 16).astype(np.float32))
    outer, = [s for s in exe.program.steps if isinstance(s, WhileLoop)]
    assert any(isinstance(s, WhileLoop) for s in outer.body)  # the inner loop is a step of the body


def test_loop_that_never_runs_returns_its_init():
    text = module("""
        x = f32[16] parameter(0)
        start = s32[] constant(9)
        init = (s32[], f32[16]) tuple(start, x)
        w = (s32[], f32[16]) while(init), condition=cond.3, body=inner
    """, NESTED)
    x = RNG.standard_normal(16).astype(np.float32)
    i, v = check(text, x)(x)
    assert i == 9 and np.array_equal(v, x)


BRANCHES3 = """
b0 {
  p = f32[8,32] parameter(0)
  ROOT e = f32[8,32] exponential(p)
}
b1 {
  p = (f32[8,32], f32[8,32]) parameter(0)
  a = f32[8,32] get-tuple-element(p), index=0
  b = f32[8,32] get-tuple-element(p), index=1
  ROOT d = f32[8,32] subtract(a, b)
}
b2 {
  p = f32[] parameter(0)
  ROOT k = f32[8,32] broadcast(p), dimensions={}
}
"""


@pytest.mark.parametrize("index", [0, 1, 2, 7, -1])
def test_indexed_conditional_out_of_range_runs_the_last_branch(index):
    text = module("""
        k = s32[] parameter(0)
        x = f32[8,32] parameter(1)
        y = f32[8,32] parameter(2)
        s = f32[] constant(2.5)
        xy = (f32[8,32], f32[8,32]) tuple(x, y)
        r = f32[8,32] conditional(k, x, xy, s), branch_computations={b0, b1, b2}
    """, BRANCHES3)
    x, y = (RNG.standard_normal((8, 32)).astype(np.float32) for _ in range(2))
    check(text, np.int32(index), x, y)


def test_constant_operands_and_results_cross_into_branches():
    """A constant operand is copied into the arena for the branch to read; a branch that
    returns its parameter or a constant as is gets a device copy, not a kernel."""
    text = module("""
        c = pred[] parameter(0)
        k = f32[4] constant({1, 2, 3, 4})
        r = f32[4] conditional(c, k, k), true_computation=same, false_computation=fixed
    """, """
same {
  ROOT p = f32[4] parameter(0)
}
fixed {
  p = f32[4] parameter(0)
  ROOT q = f32[4] constant({9, 8, 7, 6})
}
""")
    for pred in (True, False):
        exe = check(text, np.array(pred))
    assert exe.report.kernels == []
    branch_steps = [s for s in exe.program.steps if isinstance(s, Conditional)][0].branches
    assert all(isinstance(s, DeviceCopy) for branch in branch_steps for s in branch)


def test_conditional_inside_a_loop_body():
    text = module("""
        x = f32[16] parameter(0)
        zero = s32[] constant(0)
        init = (s32[], f32[16]) tuple(zero, x)
        w = (s32[], f32[16]) while(init), condition=cond.3, body=alternate
    """, COUNTED.format(n=3) + """
double {
  p = f32[16] parameter(0)
  ROOT d = f32[16] add(p, p)
}
shift {
  p = f32[16] parameter(0)
  one = f32[] constant(1)
  ones = f32[16] broadcast(one), dimensions={}
  ROOT d = f32[16] subtract(p, ones)
}
alternate {
  s = (s32[], f32[16]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  v = f32[16] get-tuple-element(s), index=1
  two = s32[] constant(2)
  zero = s32[] constant(0)
  r = s32[] remainder(i, two)
  even = pred[] compare(r, zero), direction=EQ
  next = f32[16] conditional(even, v, v), true_computation=double, false_computation=shift
  one = s32[] constant(1)
  j = s32[] add(i, one)
  ROOT t = (s32[], f32[16]) tuple(j, next)
}
""")
    check(text, RNG.standard_normal(16).astype(np.float32))


def test_row_reduction_kernel_inside_a_loop():
    """Loop bodies get the same kernels as the entry: a softmax row reduction, 3 times."""
    text = module("""
        x = f32[8,256] parameter(0)
        zero = s32[] constant(0)
        init = (s32[], f32[8,256]) tuple(zero, x)
        w = (s32[], f32[8,256]) while(init), condition=c3, body=soft
    """, """
c3 {
  s = (s32[], f32[8,256]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}
mx {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT m = f32[] maximum(a, b)
}
soft {
  s = (s32[], f32[8,256]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  v = f32[8,256] get-tuple-element(s), index=1
  low = f32[] constant(-inf)
  m = f32[8] reduce(v, low), dimensions={1}, to_apply=mx
  mb = f32[8,256] broadcast(m), dimensions={0}
  d = f32[8,256] subtract(v, mb)
  e = f32[8,256] exponential(d)
  one = s32[] constant(1)
  j = s32[] add(i, one)
  ROOT t = (s32[], f32[8,256]) tuple(j, e)
}
""")
    exe = check(text, RNG.standard_normal((8, 256)).astype(np.float32))
    assert "row-reduce" in {k.kind for k in exe.report.kernels}


def test_listing_shows_the_host_program():
    text, *_ = corpus_case("fori_damped")
    exe = emulated_executable(text)
    lines = exe.report.program.splitlines()
    assert lines[0].startswith("while ") and "  condition:" in lines and "  body:" in lines
    assert exe.report.program == "\n".join(listing(exe.program.steps))


def test_relocate_maps_every_buffer_of_nested_steps():
    shape = ArrayShape("f32", (4,))
    a, b = ArrayStorage("arena", 0, 16, "a", shape), ArrayStorage("param", 0, 16, "p", shape)
    pred = ArrayStorage("arena", 64, 1, "pred", ArrayShape("pred", ()))
    launch = KernelLaunch("k", (1, 1, 1), (32, 1, 1), 0, (a, b))
    loop = WhileLoop("w", (DeviceCopy(b, a),), (launch,), pred, (launch,), ())
    steps = (Conditional("c", pred, ((loop,), (launch,))),)
    moved = relocate(steps, lambda buf: ArrayStorage("arena", buf.slot + 1000, buf.size, buf.value, buf.shape))
    found = []

    def collect(items):
        for s in items:
            if isinstance(s, KernelLaunch):
                found.extend(s.buffers)
            elif isinstance(s, DeviceCopy):
                found.extend([s.src, s.dst])
            elif isinstance(s, WhileLoop):
                found.append(s.pred)
                for part in (s.init, s.condition, s.body, s.update):
                    collect(part)
            elif isinstance(s, Conditional):
                found.append(s.selector)
                for branch in s.branches:
                    collect(branch)

    collect(moved)
    assert len(found) == 10 and all(buf.kind == "arena" and buf.slot >= 1000 for buf in found)


PASS_AND_SWAP = (Path(__file__).resolve().parents[1] / "hlo_samples" / "loop_pass_and_swap.hlo").read_text()


def test_loop_state_passed_through_and_swapped_on_the_gpu():
    """As the CPU test of the same name: leaf 3 passes through (no next buffer, no copy back),
    leaves 1 and 2 trade places each iteration."""
    a, b, k = (np.linspace(-1, 1, 8, dtype=np.float32) * (m + 1) for m in range(3))
    exe = check(PASS_AND_SWAP, a, b, k)
    loop, = [s for s in exe.program.steps if isinstance(s, WhileLoop)]
    assert len(loop.update) == 3  # counter, and the two swapped leaves; not the passed-through one
    copies = [step for step in loop.body if isinstance(step, DeviceCopy)]
    assert len(copies) == 1  # b into next's slot 1; the passed-through leaf needs none
