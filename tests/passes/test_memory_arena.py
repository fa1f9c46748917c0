"""The strongest check of a memory plan: run the program in it.

`run_in_arena` executes the entry computation in schedule order with one byte array as the
arena: every value is written at its planned offset and every operand is read back from
there when it is used. A buffer freed too early, reused while still live, or overlapping
another would corrupt a later read, and the outputs would differ from the evaluator's.
(It checks lifetimes, not the element order inside one in-place loop.)
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from pass_helpers import corpus_case, corpus_cases

from hloscope import evaluate, parse_hlo
from hloscope.evaluator import evaluate_instruction
from hloscope.ir.shape import TupleShape
from hloscope.memory import plan_memory
from hloscope.memory.values import aliases
from hloscope.passes.bisect import flat_outputs
from hloscope.passes.fusion import InstructionFusion, MultiOutputFusion
from hloscope import optimize
from hloscope.passes.pipeline import Pipeline
from hloscope.passes.scheduler import MemoryScheduler


def run_in_arena(module, args):
    """The entry's result, computed with every arena value stored at its planned offset."""
    plan, comp = plan_memory(module), module.entry_computation
    arena = np.zeros(plan.peak_bytes, dtype=np.uint8)
    where = {(v, b.index if v == b.name else ()): b for b in plan.buffers for v in b.values}

    def load(name, index, shape):
        b = where[(name, index)]
        return arena[b.offset:b.offset + shape.byte_size].view(shape.numpy_dtype).reshape(shape.dims).copy()

    def read(name):
        inst = comp[name]
        if inst.opcode == "parameter":
            return args[inst.parameter_number]
        if inst.opcode == "constant":
            return inst.literal.value
        if aliases(inst, comp):  # read through, at the time of use
            values = [read(o) for o in inst.operands]
            if inst.opcode == "tuple":
                return tuple(values)
            if inst.opcode == "get-tuple-element":
                return values[0][inst.attrs["index"]]
            return np.ascontiguousarray(values[0]).reshape(inst.shape.dims)
        if isinstance(inst.shape, TupleShape):
            return tuple(load(name, (k,), s) for k, s in enumerate(inst.shape.elements))
        return load(name, (), inst.shape)

    for name in plan.schedule:
        inst = comp[name]
        if inst.opcode in ("parameter", "constant") or aliases(inst, comp):
            continue
        value = evaluate_instruction(module, inst, [read(o) for o in inst.operands])
        parts = enumerate(inst.shape.elements) if isinstance(inst.shape, TupleShape) else [(None, inst.shape)]
        for k, shape in parts:
            b = where[(name, () if k is None else (k,))]
            data = np.ascontiguousarray(value if k is None else value[k], dtype=shape.numpy_dtype).view(np.uint8)
            arena[b.offset:b.offset + data.size] = data.reshape(-1)
    return read(comp.root)


@pytest.mark.parametrize("pipeline", ["none", "default"])
@pytest.mark.parametrize("name", sorted(corpus_cases()))
def test_corpus_runs_in_its_arena(name, pipeline):
    module, args, outs, case = corpus_case(name)
    got = flat_outputs(run_in_arena(optimize(module, pipeline).module, args))
    for g, want in zip(got, outs, strict=True):
        np.testing.assert_allclose(g, want, rtol=case["rtol"], atol=case["atol"])


def random_module(seed: int, n: int = 40) -> str:
    """A random DAG of elementwise ops, reductions, broadcasts and transposes (4x6 floats)."""
    r = random.Random(seed)
    lines = ["HloModule fuzz", "", "add {", "  a = f32[] parameter(0)", "  b = f32[] parameter(1)",
             "  ROOT s = f32[] add(a, b)", "}", "", "ENTRY main {", "  p0 = f32[4,6] parameter(0)",
             "  p1 = f32[4,6] parameter(1)", "  v0 = f32[4] parameter(2)", "  z = f32[] constant(0)"]
    mats, vecs = ["p0", "p1"], ["v0"]
    for i in range(n):
        a, b, k = r.choice(mats[-3:] + mats), r.choice(mats), r.random()
        if k < 0.3:
            lines.append(f"  t{i} = f32[4,6] {r.choice(['add', 'multiply', 'maximum'])}({a}, {b})")
        elif k < 0.45:
            lines.append(f"  t{i} = f32[4,6] {r.choice(['exponential', 'tanh', 'negate'])}({a})")
        elif k < 0.6:
            lines.append(f"  t{i} = f32[4] reduce({a}, z), dimensions={{1}}, to_apply=add")
        elif k < 0.75:
            lines.append(f"  t{i} = f32[4,6] broadcast({r.choice(vecs)}), dimensions={{0}}")
        elif k < 0.85:
            lines.append(f"  t{i} = f32[4] multiply({r.choice(vecs)}, {r.choice(vecs)})")
        else:
            lines.append(f"  u{i} = f32[6,4] transpose({a}), dimensions={{1,0}}")
            lines.append(f"  t{i} = f32[4,6] transpose(u{i}), dimensions={{1,0}}")
        (vecs if "f32[4] " in lines[-1] else mats).append(f"t{i}")
    outs = r.sample(mats[3:], min(2, len(mats) - 3)) + [vecs[-1]]
    shapes = ", ".join("f32[4,6]" if o in mats else "f32[4]" for o in outs)
    return "\n".join(lines + [f"  ROOT out = ({shapes}) tuple({', '.join(outs)})", "}"]) + "\n"


@pytest.mark.parametrize("seed", range(40))
def test_random_modules_run_in_their_arena_after_fusion(seed):
    module = parse_hlo(random_module(seed))
    rng = np.random.default_rng(seed)
    args = [rng.random((4, 6), np.float32), rng.random((4, 6), np.float32), rng.random(4, np.float32)]
    want = flat_outputs(evaluate(module, *args))
    fused = Pipeline("p", [InstructionFusion(), MultiOutputFusion(), MemoryScheduler()]).run(module)
    for m in (module, fused):
        for g, w in zip(flat_outputs(run_in_arena(m, args)), want, strict=True):
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
