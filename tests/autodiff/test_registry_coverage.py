"""Every HLO opcode the tracer can emit has a VJP rule, makes no float result, or is refused
on purpose; and the test set (autodiff_cases.py) lowers to every differentiable one of them.

The tracer's opcodes are found two ways: statically (every opcode named in the lowering code
of hloscope/frontend, outside autodiff/) and by lowering the cases (which also catches the
ones the builder makes by method: conditional, while, tuple, get-tuple-element)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
from autodiff_cases import CASES, NUMPY

import hloscope
from hloscope.frontend.autodiff import NON_FLOAT_OPCODES, REFUSED, VJP_RULES
from hloscope.ir.opcodes import OPCODES

FRONTEND = Path(hloscope.__file__).parent / "frontend"
# Opcodes every traced program has, which no test needs to differentiate through.
STRUCTURAL = {"parameter", "constant", "iota", "tuple", "get-tuple-element"}


def _static_opcodes() -> set[str]:
    found = set()
    for path in FRONTEND.rglob("*.py"):
        if "autodiff" in path.parts:
            continue
        text = path.read_text()
        found |= {lit for lit in re.findall(r'"([a-z][a-z0-9-]*)"', text) if lit in OPCODES}
        found |= {"conditional" for _ in re.findall(r"\bcb\.conditional\(", text)}
        found |= {"while" for _ in re.findall(r"\bcb\.while_loop\(", text)}
    return found


def _lowered_opcodes() -> set[str]:
    found = set()
    for case in CASES:
        module = hloscope.jit(case.make(NUMPY)).lower(*case.args_as(np.float32))
        for comp in module.computations:
            found |= {inst.opcode for inst in comp.instructions}
    return found


STATIC = _static_opcodes()
LOWERED = _lowered_opcodes()


def test_every_opcode_the_tracer_emits_is_accounted_for():
    emitted = STATIC | LOWERED
    unaccounted = emitted - set(VJP_RULES) - NON_FLOAT_OPCODES - set(REFUSED)
    assert not unaccounted, f"opcodes with no VJP rule and not listed as non-float or refused: {sorted(unaccounted)}"


def test_the_static_scan_sees_what_lowering_makes():
    """Guards the scan itself: if it missed an opcode the cases lower to, it could miss others."""
    assert LOWERED - STATIC <= {"conditional", "while", "tuple", "get-tuple-element", "parameter", "constant"}, \
        sorted(LOWERED - STATIC)
    assert {"sine", "dot", "gather", "reduce-window", "sort"} <= STATIC


def test_the_cases_cover_every_differentiable_opcode_the_tracer_emits():
    differentiable = (STATIC | LOWERED) & set(VJP_RULES)
    missing = differentiable - LOWERED - STRUCTURAL
    assert not missing, f"no autodiff case lowers to {sorted(missing)}"


def test_no_opcode_is_both_ruled_and_refused():
    assert not set(VJP_RULES) & set(REFUSED)
    assert not set(VJP_RULES) & NON_FLOAT_OPCODES
    assert set(REFUSED) <= set(OPCODES) and NON_FLOAT_OPCODES <= set(OPCODES)
