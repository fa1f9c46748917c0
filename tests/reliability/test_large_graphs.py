"""Large graphs: every stage does linear work, and a 20,000-instruction module gets through.

Not timed (timed tests are noisy): each stage's Python function calls are counted at 2k and
8k instructions (work_count.py). Linear stages make about 4x the calls for 4x the size; a
quadratic one makes 16x. Both the total and every single function must stay under 6x, and
a failure names the functions that grew. benchmarks/large_graphs.py prints the times.
"""

from __future__ import annotations

import generators as GENERATE
import numpy as np
import pytest
from work_count import count_calls, superlinear

import hloscope
from hloscope import viz
from hloscope.ir.verifier import forget_checked_shapes
from hloscope.memory import plan_memory

pytestmark = pytest.mark.large

SMALL, BIG = 2_000, 8_000
RATIO = BIG / SMALL
SLACK = 1.5  # growth allowed beyond the size ratio: 6x calls for 4x the instructions


@pytest.fixture(scope="module")
def sized():
    """{size: (text, parsed module, optimize result)} of branchy modules at both sizes."""
    out = {}
    for n in (SMALL, BIG):
        text = GENERATE.make_branchy_module(n)
        module = hloscope.parse_hlo(text)
        out[n] = (text, module, hloscope.optimize(module))
    return out


STAGES = {
    "parse": lambda text, module, result: hloscope.parse_hlo(text),
    "verify": lambda text, module, result: module.verify(),
    "optimize": lambda text, module, result: hloscope.optimize(module),
    "memory plan": lambda text, module, result: plan_memory(result.module),
    "graph DOT": lambda text, module, result: viz.module_to_dot(result.module, max_nodes=10**9),
    "graph view": lambda text, module, result: viz.graph_html(result.module),
}


def assert_linear(small, big, size_ratio: float, stage: str) -> None:
    grown = superlinear(small, big, size_ratio, SLACK)
    assert not grown, f"{stage}: calls grew faster than the module:\n" + "\n".join(grown[:10])
    assert big.total <= size_ratio * SLACK * small.total, f"{stage}: {small.total} -> {big.total} calls"


@pytest.mark.parametrize("stage", list(STAGES))
def test_stage_does_linear_work(stage, sized):
    run = STAGES[stage]

    def cold_run(n: int):
        forget_checked_shapes()  # the verifier remembers checks across modules: count from empty
        return count_calls(lambda: run(*sized[n]))

    small, big = cold_run(SMALL), cold_run(BIG)
    assert_linear(small, big, RATIO, stage)


def test_cpu_lowering_does_linear_work():
    modules = [hloscope.parse_hlo(GENERATE.make_chain_module(n)) for n in (1_000, 4_000)]

    def cold_compile(module):
        # Cache hits compare equal-but-not-identical shapes: how many depends on what earlier
        # tests left in the verifier's cache, so count from empty (as the stages above do).
        forget_checked_shapes()
        return count_calls(lambda: hloscope.compile(module, backend="cpu", cache=False))

    small, big = cold_compile(modules[0]), cold_compile(modules[1])
    assert_linear(small, big, 4, "CPU compile")


def test_a_20k_instruction_module_goes_through_every_stage():
    """Parse, verify, passes, memory plan, the graph view (which falls back to a summary this
    big), and the CPU backend, whose entry runs its 2,000-odd steps in step functions: the
    executable computes what the evaluator does."""
    module = hloscope.parse_hlo(GENERATE.make_branchy_module(20_000)).verify()
    assert module.instruction_count() >= 19_900
    result = hloscope.optimize(module)
    assert result.memory_plan is not None and plan_memory(result.module).peak_bytes == result.memory_plan.peak_bytes
    assert "digraph" in viz.module_to_dot(result.module, max_nodes=10**9)
    assert "summary" in viz.graph_html(result.module)
    rng = np.random.default_rng(0)
    args = [(rng.standard_normal(p.shape.dims) * 0.1).astype(np.float32) for p in module.entry_computation.parameters]
    exe = hloscope.compile(module, backend="cpu", cache=False)
    assert f"{exe.report.entry_name}.steps" in exe.report.llvm_ir
    np.testing.assert_allclose(exe(*args), hloscope.evaluate(module, *args), rtol=1e-4, atol=1e-4)


def test_work_counting_catches_a_quadratic_stage(sized):
    """The check above is not vacuous: a stage that looks up each instruction's users by
    scanning the whole computation is flagged, and named."""

    def uses(user, name):
        return name in user.operands

    def quadratic(text, module, result):
        insts = module.entry_computation.instructions
        insts = insts[: len(insts) // 8]  # an eighth is enough to show the growth, and quicker
        return [[u for u in insts if uses(u, i.name)] for i in insts]

    small, big = (count_calls(lambda n=n: quadratic(*sized[n])) for n in (SMALL, BIG))
    with pytest.raises(AssertionError, match="uses"):
        assert_linear(small, big, RATIO, "quadratic")
