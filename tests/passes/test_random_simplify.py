"""Random programs full of simplifiable patterns keep their values through "simplify".

Each seed builds a module over a [4,6] float input from a mix of steps that the passes
should rewrite (x + 0, x * 1, x / 2, reshape pairs, double transposes, repeated
subexpressions, constant arithmetic) and steps they must leave alone (x * 0 on floats,
x / 3), then checks every pass record against the input module with the evaluator."""

from __future__ import annotations

import numpy as np
import pytest

from hloscope import parse_hlo
from hloscope.evaluator import evaluate
from hloscope.passes.bisect import random_arguments
from hloscope import optimize

S = "f32[4,6]"
SPLAT = "%{o} = f32[] constant({c}); %{o}b = {S} broadcast(%{o}), dimensions={{}}; "
STEPS = [  # "; " separates instructions; {x}, {y}: earlier values; {o}: this step's prefix
    SPLAT.replace("{c}", "0") + "%{o}r = {S} add(%{x}, %{o}b)",
    SPLAT.replace("{c}", "1") + "%{o}r = {S} multiply(%{o}b, %{x})",
    SPLAT.replace("{c}", "2") + "%{o}r = {S} divide(%{x}, %{o}b)",
    SPLAT.replace("{c}", "3") + "%{o}r = {S} divide(%{x}, %{o}b)",
    "%{o} = f32[24] reshape(%{x}); %{o}r = {S} reshape(%{o})",
    "%{o} = f32[6,4] transpose(%{x}), dimensions={{1,0}}; %{o}r = {S} transpose(%{o}), dimensions={{1,0}}",
    "%{o} = {S} tanh(%{x}); %{o}t = {S} tanh(%{x}); %{o}r = {S} add(%{o}, %{o}t)",
    "%{o} = {S} negate(%{x}); %{o}r = {S} negate(%{o})",
    "%{o} = f32[] constant(1.5); %{o}c = f32[] multiply(%{o}, %{o}); "
    "%{o}b = {S} broadcast(%{o}c), dimensions={{}}; %{o}r = {S} subtract(%{x}, %{o}b)",
    "%{o} = f32[2,12] reshape(%{x}); %{o}e = f32[2,12] exponential(%{o}); %{o}r = {S} reshape(%{o}e)",
    "%{o} = {S} maximum(%{x}, %{y}); %{o}r = {S} multiply(%{o}, %{x})",
]


def random_module(seed: int, steps: int = 12) -> str:
    rng = np.random.default_rng(seed)
    lines, values = [f"%p0 = {S} parameter(0)", f"%p1 = {S} parameter(1)"], ["p0", "p1"]
    for i in range(steps):
        template = STEPS[rng.integers(len(STEPS))]
        x, y = (values[j] for j in rng.integers(len(values), size=2))
        lines += template.format(o=f"s{i}", x=x, y=y, S=S).split("; ")
        values.append(f"s{i}r")
    lines.append(f"ROOT %out = {S} add(%{values[-1]}, %{values[-2]})")
    body = "\n  ".join(lines)
    return f"HloModule random_{seed}\n\nENTRY %main (p0: {S}, p1: {S}) -> {S} {{\n  {body}\n}}\n"


@pytest.mark.parametrize("seed", range(25))
def test_simplify_keeps_values(seed):
    module = parse_hlo(random_module(seed))
    args = random_arguments(module, seed)
    want = evaluate(module, *args)
    result = optimize(module, "simplify")
    assert result.module.instruction_count() < module.instruction_count()
    for record in result.changed_records:
        got = evaluate(record.after, *args)
        np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6, err_msg=f"after {record.name}")
