"""The exercise checks of notebook 06, "LLVM IR and machine code": read off what the compiler
made (the levels that vectorize, the fused multiply-adds of the exp approximation)."""

from __future__ import annotations

import re
from typing import Any

from .exercises import Wrong, equal_to, exercise

FMULADD_CALL = 'call float @"llvm.fmuladd.f32"'


def llvm_function(ir_text: str, name: str) -> str:
    """The text of one function of an LLVM module, from `define` to its closing brace."""
    quoted = re.escape(name)
    match = re.search(rf'^define [^\n]*@"?{quoted}"?\(.*?^}}', ir_text, re.S | re.M)
    return match.group(0) if match else f"(no function {name})"


def vectorized_levels(optimized_irs: dict[int, str]) -> set[int]:
    """The -O levels whose optimized IR has a `<N x float>` vector type."""
    return {level for level, ir in optimized_irs.items() if re.search(r"<\d+ x float>", ir)}


def check_vectorized_levels(optimized_irs: dict[int, str], answer: Any) -> None:
    """`answer`: the set of -O levels (keys of optimized_irs) at which LLVM vectorized."""
    expected = vectorized_levels(optimized_irs)

    def rule(levels: Any) -> bool:
        if not isinstance(levels, (set, frozenset, list, tuple)):
            raise Wrong("answer with a set of levels, such as {0, 1}")
        got = set(levels)
        if got - set(optimized_irs):
            raise Wrong(f"the levels are {sorted(optimized_irs)}")
        if got < expected:
            raise Wrong("some levels that vectorize are missing")
        if got > expected:
            raise Wrong("some of these levels do not vectorize")
        return got == expected

    exercise("the -O levels that vectorize", answer, rule,
             hint="look at the 'vectors' column: which rows show a <N x float> type?")


def check_fmuladds(llvm_ir: str, answer: Any) -> None:
    """`answer`: how many llvm.fmuladd.f32 calls the emitted exp approximation makes."""
    count = llvm_function(llvm_ir, "hloscope.exponential.f32").count(FMULADD_CALL)
    exercise("fmuladd calls in the exp approximation", answer, equal_to(count),
             hint=f"count the lines with `{FMULADD_CALL}` in the function printed above")

