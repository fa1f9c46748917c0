"""The loop hints LLVM gets (backend/loops.py): which loops interleave, which fold their tail."""

from __future__ import annotations

import re

import numpy as np
import llvmlite.binding as llvm

from backend_helpers import check_against_evaluator, compile_text, module, reducer
from hloscope.backend.cpu.fast.llvm_split import parts_of

INTERLEAVE_ONE = '!"llvm.loop.interleave.count", i32 1'
FOLD_TAIL = '!"llvm.loop.vectorize.predicate.enable", i1 1'


def hints_of(ir: str, loop_id: str) -> str:
    """The hints a loop ID carries, as one text."""
    nodes = dict(re.findall(r"^(!\d+) = (.*)$", ir, re.M))
    members = re.findall(r"!\d+", nodes[loop_id])[1:]  # the first is the ID itself
    return " ".join(nodes[m] for m in members)


def hinted_loops(ir: str, function: str) -> list[str]:
    """For each hinted loop latch in `function`'s body: the hints its loop ID carries."""
    body = ir.split(f'define void @"{function}"', 1)[1].split("\n}\n", 1)[0]
    return [hints_of(ir, ref) for ref in re.findall(r"!llvm\.loop (!\d+)", body)]


def test_elementwise_loops_do_not_interleave_and_cheap_sums_do():
    text = module("""
        p = f32[64,256] parameter(0)
        q = f32[64,256] multiply(p, p)
        z = f32[] constant(0)
        r = f32[64] reduce(q, z), dimensions={1}, to_apply=add
        s = f32[64,256] add(p, p)
        t = (f32[64], f32[64,256]) tuple(r, s)
    """, reducer("add", "add", "f32"))
    exe = compile_text(text, library=False)
    ir = exe.report.llvm_ir
    kinds = {k.name: k.kind for k in exe.report.kernels}
    loop = next(name for name, kind in kinds.items() if kind == "loop")
    reduce = next(name for name, kind in kinds.items() if kind == "reduce")
    assert hinted_loops(ir, loop) and all(INTERLEAVE_ONE in h for h in hinted_loops(ir, loop))
    assert not any(INTERLEAVE_ONE in h for h in hinted_loops(ir, reduce))  # the sum keeps its accumulators


def test_a_sum_of_exponentials_does_not_interleave():
    text = module("""
        p = f32[64,256] parameter(0)
        e = f32[64,256] exponential(p)
        z = f32[] constant(0)
        r = f32[64] reduce(e, z), dimensions={1}, to_apply=add
    """, reducer("add", "add", "f32"))
    x = np.random.default_rng(1).standard_normal((64, 256)).astype(np.float32)
    exe = check_against_evaluator(text, [x], rtol=1e-5, atol=1e-5, library=False)  # generated, not a row program
    reduce = exe.report.kernels[0].name
    assert any(INTERLEAVE_ONE in h for h in hinted_loops(exe.report.llvm_ir, reduce))


def test_only_the_exact_sine_loop_folds_its_tail():
    """The exact loop is a function of its own, which the kernel calls (huge_trig_loop.py),
    so LLVM can compile it in another part; it alone folds its tail (100001 elements: not
    whole vectors, which would need no tail: see below)."""
    text = module("""
        p = f32[100001] parameter(0)
        s = f32[100001] sine(p)
    """)
    exe = compile_text(text, llvm_parts=2)
    ir = exe.report.llvm_ir
    kernel = exe.report.kernels[0].name
    exact = f"{kernel}.exact"
    assert f'call void @"{exact}"(' in ir
    assert not any(FOLD_TAIL in h for h in hinted_loops(ir, kernel)) and hinted_loops(ir, kernel)  # the fast loop
    folded = [h for h in hinted_loops(ir, exact) if FOLD_TAIL in h]
    assert len(folded) == 1
    parts = parts_of(exe.report.optimized_llvm_ir)  # the two loops compile on two cores
    assert [any(f"define void @{name}(" in p for p in parts) for name in (kernel, exact)] == [True, True]
    assert not any(f"define void @{kernel}(" in p and f"define void @{exact}(" in p for p in parts)
    exact_latch = re.search(r'br label %"exact\.header", !llvm\.loop (!\d+)', ir)
    assert exact_latch is not None and FOLD_TAIL in hints_of(ir, exact_latch.group(1))
    x = (np.random.default_rng(2).standard_normal(100001) * 1e6).astype(np.float32)  # huge: the exact path runs
    np.testing.assert_allclose(exe(x), np.sin(x.astype(np.float64)), atol=2e-6)


def test_loops_over_whole_vectors_have_one_vector_body_and_no_remainder():
    """A flat loop over a multiple of 16 elements: every [begin, end) a partition or a row
    chain calls it with is whole vectors (loops.for_whole_vectors), so LLVM makes the body once,
    with no vector epilogue and no scalar remainder; with huge arguments too."""
    for n, whole in ((100000, True), (100001, False)):
        text = module(f"""
            p = f32[{n}] parameter(0)
            e = f32[{n}] exponential(p)
            s = f32[{n}] sine(p)
            r = f32[{n}] add(e, s)
        """)
        exe = compile_text(text, threads=3, parallel_min_elements=1)
        ir = exe.report.optimized_llvm_ir
        assert ("vec.epilog" not in ir and "middle.block" not in ir) == whole, n
        assert (exe.report.kernels[0].partitions == 3)
        x = (np.random.default_rng(3).standard_normal(n) * 3).astype(np.float32)
        x[::997] *= 1e6  # some huge: the exact path runs in some blocks
        with np.errstate(over="ignore"):  # exp of the huge positive ones is inf, in both
            want = np.exp(x.astype(np.float64)) + np.sin(x.astype(np.float64))
        np.testing.assert_allclose(exe(x), want.astype(np.float32), rtol=1e-5, atol=2e-6)


def test_hinted_modules_parse_and_keep_their_hints_through_the_split():
    """The loop IDs are `distinct` and name themselves, as LLVM requires; each part of a split
    module carries them."""
    exe = compile_text(module("""
        p = f32[512,256] parameter(0)
        e = f32[512,256] exponential(p)
        z = f32[] constant(0)
        r = f32[512] reduce(e, z), dimensions={1}, to_apply=add
        s = f32[512,256] tanh(p)
        t = (f32[512], f32[512,256]) tuple(r, s)
    """, reducer("add", "add", "f32")), llvm_parts=2, library=False)
    ir = exe.report.llvm_ir
    assert re.search(r"^(!\d+) = distinct !\{ \1, ", ir, re.M)
    llvm.parse_assembly(ir).verify()
