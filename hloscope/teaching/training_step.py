"""The exercise checks of notebook 12, "from a loss to its training step": each works out the
right answer from the module or record itself, and when an answer is wrong, says which likely
mistake it matches.

    from hloscope.teaching.training_step import check_part_counts
    check_part_counts(module, my_counts)
        ✓ forward / backward / other instructions

The answers start as `...` (`not answered yet`); see hloscope.teaching.exercises.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..compilation.record import Compilation
from ..ir.module import HloModule
from ..memory.saved_activations import saved_activations, saved_bytes
from ..memory.training_parts import PARTS, classify, part_counts
from .exercises import Wrong, close_to, exercise


def _naive_counts(module: HloModule) -> dict[str, int]:
    """The classic slip: `jvp(` tested first, so every backward op (in `transpose(jvp(...))`)
    counts as forward."""
    counts: dict[str, int] = {p: 0 for p in PARTS}
    for inst in module.entry_computation.instructions:
        name = (inst.metadata.op_name if inst.metadata else None) or ""
        counts["forward" if "jvp(" in name else "backward" if "transpose(" in name else "other"] += 1
    return counts


def check_part_counts(module: HloModule, answer: dict[str, Any]) -> None:
    """Exercise 1: how many ENTRY instructions of the traced (unoptimized) step are forward,
    backward and other, read from their op_name scopes."""
    expected = part_counts(module)

    def rule(counts: Any) -> bool:
        if not isinstance(counts, dict) or set(counts) != set(PARTS):
            raise Wrong(f"answer with a dict with the keys {', '.join(PARTS)}")
        got = {p: int(counts[p]) for p in PARTS}
        if got == expected:
            return True
        if got == _naive_counts(module):
            raise Wrong("`transpose(jvp(loss))` contains `jvp(` too: test for `transpose(` first, or every "
                        "backward instruction is counted as forward")
        if sum(got.values()) != len(module.entry_computation):
            raise Wrong(f"the three counts should add up to the {len(module.entry_computation)} instructions "
                        "of ENTRY (parameters and the output tuple are 'other')")
        wrong = [p for p in PARTS if got[p] != expected[p]]
        raise Wrong(f"the {' and '.join(wrong)} counts are not right")

    exercise("forward / backward / other instructions", answer, rule,
             hint="a `transpose(` scope is backward, else a `jvp(` scope is forward, else other")


def check_mixed_fusions(c: Compilation, answer: Any) -> None:
    """Exercise 2: the names of the fusions (in the optimized ENTRY) that fused forward and
    backward instructions together."""
    module = c.module
    if module is None:
        raise ValueError(f"{c.title}: no optimized module (did the optimize stage run?)")
    parts = classify(module)
    fusions = {n for n, p in parts.items() if module.entry_computation[n].opcode == "fusion"}
    expected = {n for n in fusions if parts[n].mixed}

    def rule(names: Any) -> bool:
        got = {names} if isinstance(names, str) else set(names)
        if got == expected:
            return True
        if got - fusions:
            raise Wrong(f"{sorted(got - fusions)} are not fusions of the optimized ENTRY")
        if got == {n for n in fusions if parts[n].part == "backward"}:
            raise Wrong("these are the fusions that are mostly backward; a mixed one holds at least one "
                        "forward instruction and one backward one")
        if got == {n for n in fusions if "transpose(" in _own_op_name(module, n)}:
            raise Wrong("a fusion's own op_name is only its root's: look at the instructions inside it")
        raise Wrong("some are missing" if got < expected else "not all of these mix the two passes")

    exercise("fusions mixing forward and backward", answer, rule,
             hint="classify each fusion by the op_names of the instructions it fused (module.computation(name))")


def _own_op_name(module: HloModule, name: str) -> str:
    metadata = module.entry_computation[name].metadata
    return (metadata.op_name if metadata else None) or ""


def check_saved_bytes(c: Compilation, answer: int) -> None:
    """Exercise 3: the bytes of activations saved for the backward pass, from c's memory plan."""
    module, plan = c.module, c.memory_plan
    if module is None or plan is None:
        raise ValueError(f"{c.title}: no memory plan (did the plan stage run?)")
    found = saved_activations(module, plan)
    expected = saved_bytes(found)
    parts = classify(module)
    forward_arena = sum(b.size for b in plan.buffers if b.offset is not None and parts[b.name].part == "forward")
    parameters = sum(b.size for b in plan.buffers if b.kind == "parameter")

    def rule(got: Any) -> bool:
        if got == expected:
            return True
        if got == len(found):
            raise Wrong("that is how many values; the question asks for their bytes")
        if got == forward_arena:
            raise Wrong("not every forward buffer is read by the backward pass: only those that are stay live")
        if got == expected + parameters:
            raise Wrong("parameters come from the caller and are kept anyway: they are not activations")
        return False

    exercise("activations saved for the backward pass, in bytes", answer, rule,
             hint="sum the sizes of forward values that some backward instruction reads (memory plan buffers)")


def check_w2_gradient(answer: Any, h: np.ndarray, out: np.ndarray, y: np.ndarray) -> None:
    """Exercise 4: dL/dw2 for L = mean((h @ w2 + b2 - y) ** 2), written by hand in numpy."""
    expected = h.T @ (2.0 * (out - y) / out.size)

    def rule(value: Any) -> bool | str:
        got = np.asarray(value)
        if got.shape == expected.T.shape and got.shape != expected.shape:
            raise Wrong(f"got shape {got.shape}, not w2's shape: the gradient of a parameter has the "
                        "parameter's shape")
        if got.shape == expected.shape and got.dtype.kind in "fc" \
                and not np.allclose(got, expected, rtol=1e-4, atol=1e-6):
            ratio = float(np.sum(got * expected) / max(float(np.sum(expected * expected)), 1e-30))
            if np.allclose(got, ratio * expected, rtol=1e-4, atol=1e-6):
                raise Wrong(f"off by a constant factor {ratio:.4g}: the mean divides by every element of out, "
                            "and d/dx x**2 = 2x")
        return close_to(expected, rtol=1e-4, atol=1e-6)(got)

    exercise("dL/dw2 by hand", answer, rule,
             hint="the chain rule: dL/dout first, then through the matmul to its right operand")
