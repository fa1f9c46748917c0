"""The checks XLA's parser makes on layouts, result_accuracy, custom-call attributes,
input_output_alias / buffer_donor and scan, and the ones its verifier makes on aliasing and
scan: each valid case is read, verified and printed back as XLA reads it,
each invalid one is rejected at its defect's line and column, and XLA judges every case
the same way (its parser, or its verifier when the module is compiled)."""

import numpy as np
import pytest

import hloscope as hs
from xla_judge import xla_compile, xla_parse, xla_run  # pyright: ignore[reportMissingImports]


def module(body: str, header: str = "") -> str:
    return f"HloModule m{header}\nENTRY e {{\n  p = f32[2,3] parameter(0)\n  {body}\n}}\n"


def _param(layout: str) -> str:
    return module(f"ROOT q = f32[2,3]{{{layout}}} copy(p)")


CC = 'ROOT c = f32[2,3]{1,0} custom-call(p), custom_call_target="foo"'
TWO = "HloModule m{}\nENTRY e {{\n  a = f32[2] parameter(0)\n  b = f32[2] parameter(1)\n" \
      "  ROOT t = (f32[2], f32[2]) tuple(a, b)\n}}\n"
SCAN_BODY = ("HloModule m\nbody {\n  x = f32[2] parameter(0)\n  c = s32[] parameter(1)\n  cf = f32[] convert(c)\n"
             "  b = f32[2] broadcast(cf), dimensions={}\n  s = f32[2] add(x, b)\n  one = s32[] constant(1)\n"
             "  c2 = s32[] add(c, one)\n  ROOT t = (f32[2], s32[]) tuple(s, c2)\n}\n")


def scan(result: str = "(f32[2,4], s32[])", attrs: str = "dimensions={1}, num_carries=1") -> str:
    return (f"{SCAN_BODY}ENTRY e {{\n  p = f32[2,4] parameter(0)\n  i = s32[] parameter(1)\n"
            f"  ROOT s = {result} scan(p, i), {attrs}, to_apply=body\n}}\n")


VALID = {
    # XLA's verifier orders a token after values of any shape (its parser tests AddDependency and
    # AfterAllWithMultipleOperands do); only StableHLO, on the way to compiling, wants tokens.
    "after-all of a value": module("t = token[] after-all()\n  ROOT a = token[] after-all(t, p)"),
    "layout tiles": _param("1,0:T(2,128)(2,1)L(1024)E(32)S(1)"),
    "layout sparse index types": _param("1,0:#(u32)*(u32)S(1)SC(0:1)M(8)"),
    "layout level types": _param("1,0:D(D,C+~)"),
    "result_accuracy mode": module("ROOT e = f32[2,3] exponential(p), result_accuracy={mode=highest}"),
    "result_accuracy tolerance": module("ROOT e = f32[2,3] tanh(p), "
                                        "result_accuracy={tolerance={atol=1e-05,rtol=0,ulps=2}}"),
    "api_version": module(CC + ", api_version=API_VERSION_TYPED_FFI, schedule=SCHEDULE_LATEST"),
    "operand_layout_constraints": module(CC + ", operand_layout_constraints={f32[2,3]{0,1}}"),
    "input_output_alias": TWO.format(", input_output_alias={ {0}: (0, {}, may-alias), {1}: (1, {}, must-alias) }"),
    "buffer_donor": TWO.format(", buffer_donor={ (0, {}), (1, {}) }"),
    "scan": scan(),
    "scan reversed": scan(attrs="dimensions={1}, num_carries=1, is_reverse=true"),
}

# (text, line, column, message): rejected by XLA's parser as well.
PARSE_REJECTED = [
    (_param("1,0:D(X,D)"), 4, 27, "dimension level type 'X' is not D, C, S or H"),
    (_param("1,0:Q(1)"), 4, 25, r"layout: unexpected 'Q\(1\)'"),
    (_param("1,0:S(1)E(4)"), 4, 29, r"E\(...\) again or out of order"),
    (_param("1,0:P(s32[4])"), 4, 25, "physical shape P"),
    (module("ROOT e = f32[2,3] exponential(p), result_accuracy={mode=fastest}"), 4, 59,
     "result_accuracy mode 'fastest' is not one of default, highest"),
    (module("ROOT e = f32[2,3] exponential(p), result_accuracy={tolerance={foo=1}}"), 4, 65,
     "tolerance fields are atol, rtol, ulps"),
    (module("ROOT e = f32[2,3] add(p, p), result_accuracy={mode=highest}"), 4, 32, "add takes no result_accuracy"),
    (module("ROOT e = f32[2,3] exponential(p), result_accuracy={mode=highest, tolerance={atol=0}}"), 4, 66,
     "expected '}' to end result_accuracy"),
    (module(CC + ", api_version=API_VERSION_FOO"), 4, 80, "unknown api_version 'API_VERSION_FOO'"),
    (module(CC + ", api_version=API_VERSION_UNSPECIFIED"), 4, 80, "unknown api_version"),
    (module(CC + ", schedule=SCHEDULE_SOON"), 4, 77, "unknown schedule 'SCHEDULE_SOON'"),
    (module(CC + ", operand_layout_constraints={f32[2,3]{0,1}, f32[2]{0}}"), 4, 95,
     "operand_layout_constraints gives 2 shapes for 1 operands"),
    (module(CC + ", operand_layout_constraints={f32[3,2]{0,1}}"), 4, 95,
     r"operand layout constraint f32\[3,2\]\{0,1\} is not operand p's shape"),
    (TWO.format(", input_output_alias={ {3}: (0, {}) }"), 1, 33, r"output index \{3\} is not in the ENTRY's result"),
    (TWO.format(", buffer_donor={ 0 }"), 1, 29, "expected '\\(' to start a buffer donor"),
    (scan(attrs="dimensions={1}"), 15, 30, "scan needs attribute num_carries"),
]

# (text, message): XLA's parser reads these and its verifier rejects them.
VERIFY_REJECTED = [
    (TWO.format(", input_output_alias={ {0}: (5, {}) }"), "aliases parameter 5, but the ENTRY has 2 parameters"),
    (TWO.format(", input_output_alias={ {0}: (0, {1}) }"), r"index \{1\} is not in parameter 0"),
    (TWO.format(", input_output_alias={ {0}: (0, {}), {1}: (0, {}) }"), "is aliased by two outputs"),
    (scan(result="(f32[2,5], s32[])"), r"declared shape \(f32\[2,5\]"),
    (scan(attrs="dimensions={2}, num_carries=1"), "scan dimension 2 is out of range"),
]


# ---- tests ----
@pytest.mark.parametrize("name", list(VALID))
def test_valid_reads_verifies_and_round_trips(name):
    m = hs.parse_hlo(VALID[name])
    m.verify()
    text = m.to_text()
    assert hs.parse_hlo(text).to_text() == text


@pytest.mark.jax
@pytest.mark.parametrize("name", list(VALID))
def test_xla_accepts_the_valid_ones_and_reads_our_print(name):
    xla_parse(VALID[name])
    ours = hs.parse_hlo(VALID[name])
    theirs = hs.parse_hlo(xla_parse(ours.to_text()).to_string())
    assert theirs.instruction_count() == ours.instruction_count()


@pytest.mark.parametrize("text, line, column, message", PARSE_REJECTED, ids=[r[3][:30] for r in PARSE_REJECTED])
def test_rejected_at_the_defect(text, line, column, message):
    with pytest.raises(hs.HloParseError, match=message) as e:
        hs.parse_hlo(text)
    assert (e.value.line, e.value.column) == (line, column)


@pytest.mark.jax
@pytest.mark.parametrize("text", [r[0] for r in PARSE_REJECTED], ids=[r[3][:30] for r in PARSE_REJECTED])
def test_xla_parser_rejects_them_too(text):
    with pytest.raises(Exception):
        xla_parse(text)


@pytest.mark.parametrize("text, message", VERIFY_REJECTED, ids=[r[1][:30] for r in VERIFY_REJECTED])
def test_verifier_rejects(text, message):
    m = hs.parse_hlo(text)
    with pytest.raises(hs.HloVerifierError, match=message):
        m.verify()


@pytest.mark.jax
@pytest.mark.parametrize("text", [r[0] for r in VERIFY_REJECTED], ids=[r[1][:30] for r in VERIFY_REJECTED])
def test_xla_parses_but_its_verifier_rejects_them(text):
    xla_parse(text)
    with pytest.raises(Exception):
        xla_compile(text)


@pytest.mark.parametrize("header", [", buffer_donor={ (2, {}) }", ", buffer_donor={ (0, {0}) }",
                                    ", input_output_alias={ {0}: (0, {}) }, buffer_donor={ (0, {}) }"])
def test_buffer_donor_checked_as_xla_verifier_does(header):
    """HloBufferDonorConfig::Verify: the donor exists and is not also aliased. (Compiling
    through jaxlib drops buffer_donor on the way to MLIR, so XLA cannot judge these here.)"""
    with pytest.raises(hs.HloVerifierError, match="buffer_donor: parameter"):
        hs.parse_hlo(TWO.format(header)).verify()


@pytest.mark.jax
def test_an_output_aliased_twice_keeps_its_first_alias_as_xla_does():
    text = TWO.format(", input_output_alias={ {0}: (0, {}), {0}: (1, {}) }")
    m = hs.parse_hlo(text)
    m.verify()
    assert str(m.attrs["input_output_alias"]) == "{ {0}: (0, {}, may-alias) }"
    assert "{0}: (0, {}, may-alias)" in xla_parse(text).to_string()


@pytest.mark.parametrize("layout, message", [("1,0:T(2,-1)", "tile dimension '-1'"), ("1,0:L(-1)", r"L\(-1\)")])
def test_layouts_that_abort_xla_are_refused(layout, message):
    """XLA's parser CHECK-fails (ends the process) on these; hloscope refuses them."""
    with pytest.raises(hs.HloParseError, match=message):
        hs.parse_hlo(_param(layout))


def test_negative_tolerance_is_refused():
    """XLA CHECK-fails on it ("Invalid result accuracy"); hloscope refuses it where it is written."""
    text = module("ROOT e = f32[2,3] exponential(p), result_accuracy={tolerance={atol=-1}}")
    with pytest.raises(hs.HloParseError, match="tolerance atol must not be negative") as e:
        hs.parse_hlo(text)
    assert (e.value.line, e.value.column) == (4, 70)


@pytest.mark.jax
@pytest.mark.parametrize("name", ["scan", "scan reversed"])
def test_scan_evaluates_as_xla_runs_it(name):
    xs, c0 = np.arange(8, dtype=np.float32).reshape(2, 4), np.int32(10)
    ours = hs.evaluate(hs.parse_hlo(VALID[name]), xs, c0)
    theirs = xla_run(VALID[name], xs, c0)
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a, b)


def test_scan_recorded_result():
    """Without jax: XLA's output for the forward scan, recorded from jaxlib 0.10.2."""
    xs = np.arange(8, dtype=np.float32).reshape(2, 4)
    ys, c = hs.evaluate(hs.parse_hlo(VALID["scan"]), xs, np.int32(10))
    np.testing.assert_array_equal(ys, [[10, 12, 14, 16], [14, 16, 18, 20]])
    assert int(c) == 14


@pytest.mark.jax
@pytest.mark.parametrize("body, column", [
    ("ROOT n = f32[2,3] negate(p), dimensions={0}", 32),
    ("ROOT r = f32[2,3] reverse(p), dimensions={0}, dimension={0}", 49),
    ("ROOT c = f32[2,3] copy(p), frob=1", 30),
])
def test_an_attribute_xla_does_not_allow_on_the_opcode_is_rejected_there(body, column):
    with pytest.raises(hs.HloParseError, match="takes no attribute") as e:
        hs.parse_hlo(module(body))
    assert (e.value.line, e.value.column) == (4, column)
    with pytest.raises(Exception, match="unexpected attribute"):
        xla_parse(module(body))
    kept = hs.parse_hlo(module(body), allow_unknown_attributes=True).entry_computation.root_instruction
    assert body.split(", ")[-1].split("=")[0] in kept.attrs
