"""XLA's own parser tests as hloscope's: every HLO text of `xla/hlo/parser/hlo_parser_test.cc`
(extracted into tests/xla_parser_cases/cases.json with jaxlib's verdict, see its README).

A text XLA reads (and its test expects to verify) is read, verified and printed by hloscope,
and the print reads back as the same module, in hloscope and in XLA. A text XLA rejects (or
whose test expects its verifier to reject) is refused with HloParseError or HloVerifierError,
for the defect XLA names: a parse error on the line XLA's error points at, a verifier error
naming the instruction on that line, or, where XLA names no line or another one for a reason
of its own, the message listed in DEFECTS.
"""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

import hloscope as hs

HERE = Path(__file__).parent
CASES = json.loads((HERE / "xla_parser_cases" / "cases.json").read_text())["cases"]
READ = [c for c in CASES if c["xla_valid"] and not c["expects_error"]]
REFUSED = [c for c in CASES if not c["xla_valid"] or c["expects_error"]]

# Cases where hloscope's error names the defect in its own way, or XLA points at another line
# (the end of a computation, or none: its verifier, which jaxlib's parser alone does not run).
DEFECTS: dict[str, str] = {
    # XLA points at the computation's closing brace; hloscope at the attribute or instruction
    "NontupleInfeed": r"infeed must declare \(data, token\[\]\), not pred\[\]",
    "CustomCallWrongNumberofOperandConstraints": "operand_layout_constraints gives 1 shapes for 2 operands",
    "CustomCallIncompatibleOperandConstraints": r"constraint f32\[555,5\]\{1,0\} is not operand p1's shape",
    "CustomCallWithUnspecifiedVersion": "unknown api_version 'API_VERSION_UNSPECIFIED'",
    "AsyncDoneWrongComputation": "async-done calls async_wrapped.1, but async-start, .* calls async_wrapped.0",
    "AsyncDoneWithSyntaxSugarWrongOp": "add-done continues async-start, which wraps custom-call, not add",
    "AsyncDoneWrongDefaultThread": "async-done runs on execution thread 'foo_thread', but .* on 'main'",
    # XLA points at the next instruction; hloscope at the one with the defect
    "AsyncUpdateWrongComputation": "async-update calls async_wrapped.1, but async-start, .* calls async_wrapped.0",
    "AsyncUpdateWithSyntaxSugarWrongOp": "add-update continues async-start, which wraps custom-call, not add",
    "AsyncUpdateWrongDefaultThread": "async-update runs on execution thread 'foo_thread', but .* on 'main'",
    # no line in XLA's message (or no error from jaxlib's parser: a newer XLA's check)
    "AsyncOpSharedComputation": "computation async_wrapped is called by more than one async op",
    "AsyncDoneNoAsyncStart": r"custom-call-done continues one async op .*, not tuple",
    "AsyncUpdateAndAsyncDoneNoAsyncStart": r"custom-call-update continues one async op .*, not tuple",
}

# Texts XLA's test only parses (ParseAndReturnUnverifiedModule) that its verifier would reject:
# hloscope reads and prints them too, and its verifier rejects them, for this.
UNVERIFIABLE: dict[str, str] = {
    "CanonicalOpWithNested": "while condition _.2 takes 2 parameters, expected 1",
}


def _params(cases: list[dict]) -> list:
    return [pytest.param(c, id=c["name"]) for c in cases]


def _normalize():
    """benchmarks/xla_parser_tests.py's normalize(): names made positional."""
    spec = importlib.util.spec_from_file_location("xla_parser_tests", HERE.parent / "benchmarks" / "xla_parser_tests.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.normalize


@pytest.mark.parametrize("case", _params(READ))
def test_read_verified_and_printed_back(case):
    module = hs.parse_hlo(case["text"])
    _verify(module, case)
    text = module.to_text()
    again = hs.parse_hlo(text)
    _verify(again, case)
    assert again.to_text() == text


def _verify(module: hs.HloModule, case: dict) -> None:
    if case["name"] not in UNVERIFIABLE:
        module.verify()
        return
    with pytest.raises(hs.HloVerifierError, match=UNVERIFIABLE[case["name"]]):
        module.verify()


@pytest.mark.jax
@pytest.mark.parametrize("case", _params(READ))
def test_xla_reads_our_print_as_it_reads_the_original(case):
    pytest.importorskip("jax", reason="jax (the optional 'jax' extra) is not installed")
    from jax._src.lib import xla_client

    xla = xla_client.hlo.hlo_module_from_text  # pyright: ignore[reportPrivateImportUsage]
    theirs = xla(case["text"]).to_string()
    ours = xla(hs.parse_hlo(case["text"]).to_text()).to_string()
    if ours != theirs:
        normalize = _normalize()
        assert normalize(ours) == normalize(theirs)


def _xla_line(error: str) -> tuple[int | None, str]:
    """The line XLA's error points at, and that line's text."""
    m = re.search(r"was parsing (\d+):\d+: error: [^\n]*\n([^\n]*)", error)
    return (int(m.group(1)), m.group(2)) if m else (None, "")


def _names_the_defect(case: dict, error: Exception) -> bool:
    if case["name"] in DEFECTS:
        return re.search(DEFECTS[case["name"]], str(error)) is not None
    line, source = _xla_line(case.get("xla_error", ""))
    if isinstance(error, hs.HloParseError):
        return line is not None and error.line == line
    m = re.match(r"\s*(?:ROOT\s+)?%?([\w.\-]+)\s*=", source)
    return m is not None and f"instruction {m.group(1)}:" in str(error)


@pytest.mark.parametrize("case", _params(REFUSED))
def test_refused_for_its_defect(case):
    with pytest.raises((hs.HloParseError, hs.HloVerifierError)) as caught:
        hs.parse_hlo(case["text"]).verify()
    assert _names_the_defect(case, caught.value), (
        f"hloscope: {caught.value}\nXLA: {case.get('xla_error') or case['error_substr']}")
