"""A program of many steps runs them in functions of STEPS_PER_FUNCTION steps each, which the
entry calls in order (backend/cpu/entry.py): LLVM's time on one huge function grows faster
than its size. Steps keep their order, control flow stays whole inside one of them, and the
results are the evaluator's."""

from __future__ import annotations

import re

import numpy as np
import pytest

from backend_helpers import check_against_evaluator, compile_text, module
from hloscope.backend.cpu import entry
from test_control_flow_cpu import BRANCHES, WHILE_COMPS

# Unfused (pipeline="none"), every instruction below is a step of its own: eleven kernels,
# a while and a conditional.
PROGRAM = module("""
    x = f32[8] parameter(0)
    a = f32[8] negate(x)
    b = f32[8] exponential(a)
    zero = s32[] constant(0)
    init = (s32[], f32[8]) tuple(zero, b)
    w = (s32[], f32[8]) while(init), condition=cond, body=body
    l = f32[8] get-tuple-element(w), index=1
    c = f32[8] cosine(l)
    d = f32[8] add(c, x)
    m = f32[4,6] parameter(1)
    i = s32[] parameter(2)
    k = f32[4,6] conditional(i, m, m, m), branch_computations={b0, b1, b2}
    e = f32[4,6] sine(k)
    f = f32[4,6] multiply(e, m)
    t = (f32[8], f32[4,6]) tuple(d, f)
""", WHILE_COMPS + BRANCHES)

ARGS = [np.linspace(-2, 2, 8).astype(np.float32),
        np.random.default_rng(0).standard_normal((4, 6)).astype(np.float32), np.int32(1)]


def _function(ir_text: str, name: str) -> str:
    match = re.search(rf'^define [^@]*@"?{re.escape(name)}"?\(.*?^}}$', ir_text, re.M | re.S)
    assert match, f"{name} is not defined"
    return match.group(0)


def _step_functions(ir_text: str, entry_name: str) -> list[str]:
    """The functions the entry calls that run its steps, in the order it calls them."""
    return re.findall(rf'call void @"?({re.escape(entry_name)}\.steps(?:\.\d+)?)"?\(', _function(ir_text, entry_name))


def _calls(function_text: str) -> list[str]:
    """The kernels and programs a function calls, in order (not LLVM's intrinsics)."""
    return [c for c in re.findall(r'call [^@]*@"?([^"(]+)"?\(', function_text) if not c.startswith("llvm.")]


def _compiled(monkeypatch, per_function: int):
    monkeypatch.setattr(entry, "STEPS_PER_FUNCTION", per_function)
    exe = check_against_evaluator(PROGRAM, ARGS, rtol=1e-5, atol=1e-5, pipeline="none")
    ir_text, name = exe.report.llvm_ir, exe.report.entry_name
    return ir_text, name, _step_functions(ir_text, name)


@pytest.mark.parametrize("per_function", [2, 3])
def test_many_steps_run_in_step_functions_in_order(monkeypatch, per_function):
    whole_text, whole_name, none = _compiled(monkeypatch, 100)
    assert not none  # within one function's share: the entry runs the steps itself
    in_order = _calls(_function(whole_text, whole_name))
    _, _, singles = _compiled(monkeypatch, 1)
    steps = len(singles)  # one step per function: the program's number of steps
    assert steps >= 5, "the program should have several steps"
    ir_text, name, parts = _compiled(monkeypatch, per_function)
    assert len(parts) == -(-steps // per_function) and len(set(parts)) == len(parts)
    assert _calls(_function(ir_text, name)) == parts  # the entry only calls its step functions
    bodies = [_function(ir_text, p) for p in parts]
    assert all(" noinline" in body.split("\n", 1)[0] for body in bodies)  # not inlined back
    calls = [c for body in bodies for c in _calls(body)]
    assert sorted(calls) == sorted(in_order)  # the same calls, each once
    # and in the same order (a conditional's branches are blocks placed after the calls that
    # follow it, in the text: left out of the order)
    assert [c for c in calls if ".branch" not in c] == [c for c in in_order if ".branch" not in c]
