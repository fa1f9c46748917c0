"""Random mutations of corpus files (hypothesis): bytes flipped, dropped or inserted, and
token-level edits (numbers, names, opcodes, element types, whole lines) that keep the text
looking like HLO, so that more mutants get past the parser and reach the verifier.

A mutant gets HloParseError or HloVerifierError, or it is a valid module: then the passes
and the evaluator must run it or raise an hloscope error, nothing else.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from fuzz_profile import fuzz_settings
from fuzz_values import random_arguments
from hostile import CORPUS_FILES, parse_and_verify, time_bound
from hypothesis import given
from hypothesis import strategies as st

import hloscope
from hloscope import HloscopeError, NotSupportedError
from hloscope.ir.opcodes import OPCODES

pytestmark = pytest.mark.fuzz

TEXTS = {p.name: p.read_text() for p in CORPUS_FILES}
INTEGER = re.compile(r"(?<![\w.%])-?\d+(?![\w.])")
NAME = re.compile(r"%?[A-Za-z_][\w.\-]*")
ELEMENT_TYPE = re.compile(r"\b(?:pred|s8|s16|s32|s64|u8|u16|u32|u64|f16|bf16|f32|f64)\b")
NUMBERS = [0, 1, 2, 3, 7, 64, -1, -7, 2**31 - 1, 2**31, 2**63, 10**30]
RUN_LIMIT = 1 << 20  # elements: a valid mutant with bigger shapes is only parsed, not run


@st.composite
def byte_mutants(draw) -> bytes:
    data = bytearray(TEXTS[draw(st.sampled_from(sorted(TEXTS)))].encode())
    for _ in range(draw(st.integers(1, 8))):
        pos = draw(st.integers(0, len(data) - 1))
        kind = draw(st.sampled_from(["set", "delete", "insert"]))
        if kind == "set":
            data[pos] = draw(st.integers(0, 255))
        elif kind == "delete":
            del data[pos : pos + draw(st.integers(1, 16))]
        else:
            data[pos:pos] = draw(st.binary(min_size=1, max_size=8))
    return bytes(data)


def _replace_one(draw, text: str, pattern: re.Pattern, choices: list[str]) -> str:
    matches = list(pattern.finditer(text))
    if not matches:
        return text
    m = draw(st.sampled_from(matches))
    return text[: m.start()] + draw(st.sampled_from(choices)) + text[m.end() :]


def _swap_lines(draw, text: str) -> str:
    lines = text.split("\n")
    i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


@st.composite
def token_mutants(draw) -> str:
    text = TEXTS[draw(st.sampled_from(sorted(TEXTS)))]
    names = sorted(set(NAME.findall(text)))
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["number", "name", "opcode", "type", "lines"]))
        if kind == "number":
            text = _replace_one(draw, text, INTEGER, [str(n) for n in NUMBERS])
        elif kind == "name":
            text = _replace_one(draw, text, NAME, names)
        elif kind == "opcode":
            text = _replace_one(draw, text, re.compile(r"(?<= )[a-z\-]+(?=\()"), sorted(OPCODES))
        elif kind == "type":
            text = _replace_one(draw, text, ELEMENT_TYPE, ["pred", "s8", "u32", "s64", "f16", "bf16", "f32", "f64"])
        else:
            text = _swap_lines(draw, text)
    return text


@fuzz_settings(scale=2)
@given(byte_mutants())
def test_byte_mutants_parse_or_get_a_clear_error(data):
    with time_bound(what="a byte mutant"):
        parse_and_verify(data)


@fuzz_settings(scale=2)
@given(token_mutants(), st.integers(0, 2**32 - 1))
def test_token_mutants_are_refused_clearly_or_run(text, seed):
    with time_bound(what="a token mutant"):
        module = parse_and_verify(text)
    if isinstance(module, Exception) or not _small(module) or _has_loops(module):
        return  # a loop whose bound was mutated may legitimately run for ever
    try:
        hloscope.optimize(module)
        hloscope.evaluate(module, *random_arguments(module, seed))
    except HloscopeError:
        pass  # a clear refusal (not supported, bad arguments...) is fine; anything else fails


def _small(module) -> bool:
    return all(s.size <= RUN_LIMIT for _, i in module.all_instructions() for s in _arrays(i.shape))


def _arrays(shape):
    return [a for e in shape.elements for a in _arrays(e)] if shape.is_tuple else [shape] if shape.is_array else []


def _has_loops(module) -> bool:
    return any(i.opcode == "while" for _, i in module.all_instructions())


# ---- regressions: what the mutants found, minimized ----


def test_regression_gather_collapsing_a_zero_sized_slice_is_refused_clearly():
    """A mutant set slice_sizes={0,32} on a gather that collapses dimension 0. The verifier
    accepts that (as XLA's does), but every result element would come from an empty window;
    the evaluator failed with numpy's ValueError, and now says it cannot compute it."""
    module = hloscope.parse_hlo(
        """HloModule m
ENTRY main {
  x = f32[64,32] parameter(0)
  i = s32[16,1] parameter(1)
  ROOT g = f32[16,32] gather(x, i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={0,32}
}"""
    ).verify()
    with pytest.raises(NotSupportedError, match="slice size is 0"):
        hloscope.evaluate(module, np.zeros((64, 32), np.float32), np.zeros((16, 1), np.int32))
