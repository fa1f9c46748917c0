"""The exercise check of notebook 04, "fusion": a formula for the bytes a program moves,
unfused and fused, judged against the count on the compiled modules at two sizes."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..compiler import jit, optimize
from ..ir.module import HloModule
from ..ir.shape import ArrayShape, Shape, TupleShape
from .exercises import Wrong, exercise, still_unanswered

NOT_KERNELS = {"parameter", "constant", "tuple", "get-tuple-element", "bitcast"}
SIZES = ((1024, 1024), (64, 48))


def nbytes(shape: Shape) -> int:
    if isinstance(shape, TupleShape):
        return sum(nbytes(s) for s in shape.elements)
    if not isinstance(shape, ArrayShape):
        return 0  # a token holds no data
    return shape.size * shape.element_type.bits // 8


def bytes_moved(m: HloModule) -> dict[str, tuple[int, int]]:
    """{kernel: (bytes read, bytes written)} for each kernel of the ENTRY computation
    (constants are baked into the code and not counted)."""
    entry = m.entry_computation
    moved = {}
    for inst in entry:
        if inst.opcode in NOT_KERNELS:
            continue
        read = sum(nbytes(entry[o].shape) for o in inst.operands if entry[o].opcode != "constant")
        moved[inst.name] = (read, nbytes(inst.shape))
    return moved


def multiply_add_sum(x: Any, y: Any, z: Any) -> Any:
    return (x * y + z).sum(axis=1)


def measured_bytes(n: int, m: int, pipeline: str) -> int:
    xs = [np.zeros((n, m), np.float32)] * 3
    module = optimize(jit(multiply_add_sum).lower(*xs), pipeline).module
    assert module is not None
    return sum(r + w for r, w in bytes_moved(module).values())


def _formula_rule(pipeline: str) -> Callable[[Any], bool]:
    def rule(formula: Any) -> bool:
        if not callable(formula):
            raise Wrong("the answer should be a function of N and M")
        for n, m in SIZES:
            value: Any = still_unanswered(formula(n, m))
            got, want = int(value), measured_bytes(n, m, pipeline)
            if got != want:
                how = "too many" if got > want else "too few"
                raise Wrong(f"for a {n}x{m} input your formula counts {how} bytes")
        return True

    return rule


def check_unfused_bytes(formula: Callable[[int, int], int]) -> None:
    exercise("unfused_bytes(N, M)", formula, _formula_rule("simplify"),
             hint="each kernel reads its operands and writes its result; count arrays of N*M floats and of N floats")


def check_fused_bytes(formula: Callable[[int, int], int]) -> None:
    exercise("fused_bytes(N, M)", formula, _formula_rule("default"),
             hint="the fused kernel reads each input once and writes only its result")
