"""The exercise checks of notebook 12, "from a loss to its training step": each works out the
right answer from the module or record itself, and when an answer is wrong, says which likely
mistake it matches.

    from hloscope.teaching.training_step import check_part_counts
    check_part_counts(module, {"forward": 13, "backward": 22, "other": 29})
        ✓ forward / backward / other instructions: 13 / 22 / 29

A wrong answer raises CheckFailed (see hloscope.teaching.check), so a notebook run top to
bottom stops there.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..compilation.record import Compilation
from ..ir.module import HloModule
from ..memory.saved_activations import saved_activations, saved_bytes
from ..memory.training_parts import PARTS, classify, part_counts
from . import CheckFailed, check


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
    got = {p: int(answer.get(p, -1)) for p in PARTS}
    label = "forward / backward / other instructions: " + " / ".join(str(expected[p]) for p in PARTS)
    if got == expected:
        check(label, True)
        return
    hint = "a `transpose(` scope is backward, else a `jvp(` scope is forward, else other"
    if got == _naive_counts(module):
        hint = ("`transpose(jvp(loss))` contains `jvp(` too: test for `transpose(` first, or every "
                "backward instruction is counted as forward")
    elif sum(got.values()) != len(module.entry_computation):
        hint = (f"the three counts should add up to the {len(module.entry_computation)} instructions "
                "of ENTRY (parameters and the output tuple are 'other')")
    raise CheckFailed(f"{label}: got {got}. Hint: {hint}")


def check_mixed_fusions(c: Compilation, answer: Any) -> None:
    """Exercise 2: the names of the fusions (in the optimized ENTRY) that fused forward and
    backward instructions together."""
    module = c.module
    if module is None:
        raise CheckFailed(f"{c.title}: no optimized module (did the optimize stage run?)")
    parts = classify(module)
    fusions = {n for n, p in parts.items() if module.entry_computation[n].opcode == "fusion"}
    expected = {n for n in fusions if parts[n].mixed}
    got = set(answer)
    if got == expected:
        check(f"fusions mixing forward and backward: {sorted(expected)}", True)
        return
    hint = "classify each fusion by the op_names of the instructions it fused (module.computation(name))"
    if got - fusions:
        hint = f"{sorted(got - fusions)} are not fusions of the optimized ENTRY"
    elif got == {n for n in fusions if parts[n].part == "backward"}:
        hint = ("these are the fusions that are mostly backward; a mixed one holds at least one "
                "forward instruction and one backward one")
    elif got == {n for n in fusions if "transpose(" in _own_op_name(module, n)}:
        hint = "a fusion's own op_name is only its root's: look at the instructions inside it"
    raise CheckFailed(f"fusions mixing forward and backward: got {sorted(got)}, expected "
                      f"{len(expected)} fusions. Hint: {hint}")


def _own_op_name(module: HloModule, name: str) -> str:
    metadata = module.entry_computation[name].metadata
    return (metadata.op_name if metadata else None) or ""


def check_saved_bytes(c: Compilation, answer: int) -> None:
    """Exercise 3: the bytes of activations saved for the backward pass, from c's memory plan."""
    module, plan = c.module, c.memory_plan
    if module is None or plan is None:
        raise CheckFailed(f"{c.title}: no memory plan (did the plan stage run?)")
    found = saved_activations(module, plan)
    expected = saved_bytes(found)
    if answer == expected:
        check(f"activations saved for the backward pass: {expected:,} bytes in {len(found)} values", True)
        return
    parts = classify(module)
    forward_arena = sum(b.size for b in plan.buffers if b.offset is not None and parts[b.name].part == "forward")
    parameters = sum(b.size for b in plan.buffers if b.kind == "parameter")
    hint = "sum the sizes of forward values that some backward instruction reads (memory plan buffers)"
    if answer == len(found):
        hint = "that is how many values; the question asks for their bytes"
    elif answer == forward_arena:
        hint = "not every forward buffer is read by the backward pass: only those that are stay live"
    elif answer == expected + parameters:
        hint = "parameters come from the caller and are kept anyway: they are not activations"
    raise CheckFailed(f"saved activations: got {answer:,} bytes, expected another number. Hint: {hint}")


def check_w2_gradient(got: Any, h: np.ndarray, out: np.ndarray, y: np.ndarray) -> None:
    """Exercise 4: dL/dw2 for L = mean((h @ w2 + b2 - y) ** 2), written by hand in numpy."""
    expected = h.T @ (2.0 * (out - y) / out.size)
    got = np.asarray(got)
    if got.shape == expected.T.shape and got.shape != expected.shape:
        raise CheckFailed(f"dL/dw2: got shape {got.shape}, expected w2's shape {expected.shape}. "
                          "Hint: the gradient of a parameter has the parameter's shape: h.T @ dout")
    if got.shape == expected.shape and not np.allclose(got, expected, rtol=1e-4, atol=1e-6):
        ratio = float(np.sum(got * expected) / max(float(np.sum(expected * expected)), 1e-30))
        if np.allclose(got, ratio * expected, rtol=1e-4, atol=1e-6):
            raise CheckFailed(f"dL/dw2 is off by a factor {ratio:.4g}. Hint: the mean divides by every "
                              f"element of out ({out.size}), and d/dx x**2 = 2x")
    check("dL/dw2 by hand matches", got, expected, rtol=1e-4, atol=1e-6,
          hint="dout = 2 * (out - y) / out.size, then dL/dw2 = h.T @ dout")
