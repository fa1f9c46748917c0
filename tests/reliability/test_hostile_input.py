"""Hostile HLO text: every malformed input gets HloParseError or HloVerifierError, quickly.

The policy is in docs/reliability.md: no other exception type, no hang (each case is time
bounded, see hostile.time_bound), shapes past `max_elements` refused before anything is
allocated, and parsing never runs code it reads.
"""

from __future__ import annotations

import ast
import builtins
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from hostile import CORPUS_FILES, parse_and_verify, refused, time_bound

import hloscope
from hloscope import HloParseError, HloVerifierError
from hloscope.ir.computation import Computation

LONG_LINE_BOUND = 5.0  # seconds for a 1 MB line: parsing is linear (~1-3 µs per byte)
MB = 1_000_000


def module(*lines: str, computations: str = "") -> str:
    return "HloModule m\n" + computations + "ENTRY e {\n" + "\n".join("  " + line for line in lines) + "\n}\n"


def region(name: str, body: str) -> str:
    return f"{name} {{\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT r = f32[] {body}\n}}\n"


# ---- truncation ----


# Every 7th prefix of the largest optimized file (fusions, backend_config, layouts) and of a
# while loop; every 101st of the rest (a prime stride, so cuts land on every kind of token).
DENSE = ("layernorm.opt.hlo", "fori_damped.hlo")


@pytest.mark.parametrize("path", CORPUS_FILES, ids=lambda p: p.name)
def test_truncations_of_corpus_files_parse_or_get_a_clear_error(path: Path):
    text = path.read_text()
    for end in range(0, len(text), 7 if path.name in DENSE else 101):
        with time_bound(what=f"{path.name} cut at {end}"):
            parse_and_verify(text[:end])  # any other exception fails the test


# ---- a table of malformed modules ----

MALFORMED = {
    "operand shapes differ": module("a = f32[2] parameter(0)", "b = f32[3] parameter(1)", "ROOT c = f32[2] add(a, b)"),
    "declared shape wrong": module("a = f32[2] parameter(0)", "ROOT c = f32[3] negate(a)"),
    "unknown opcode": module("a = f32[2] parameter(0)", "ROOT b = f32[2] frobnicate(a)"),
    "unknown element type": module("ROOT a = f33[2] parameter(0)"),
    "duplicate names": module("a = f32[2] parameter(0)", "a = f32[2] parameter(1)", "ROOT b = f32[2] add(a, a)"),
    "undefined operand": module("a = f32[2] parameter(0)", "ROOT b = f32[2] add(a, nope)"),
    "self operand": module("a = f32[2] parameter(0)", "ROOT c = f32[2] add(a, c)"),
    "cycle by forward reference": module("a = f32[2] parameter(0)", "b = f32[2] add(a, c)", "ROOT c = f32[2] add(a, b)"),
    "computation calls itself": module("p = f32[] parameter(0)", "ROOT c = f32[] call(p), to_apply=e"),
    "mutual recursion": module(
        "p = f32[] parameter(0)", "ROOT c = f32[] call(p), to_apply=f",
        computations="f {\n  p = f32[] parameter(0)\n  ROOT c = f32[] call(p), to_apply=g\n}\n"
        "g {\n  p = f32[] parameter(0)\n  ROOT c = f32[] call(p), to_apply=f\n}\n",
    ),
    "undefined computation": module("p = f32[4] parameter(0)", "z = f32[] constant(0)",
                                    "ROOT r = f32[] reduce(p, z), dimensions={0}, to_apply=nope"),
    "reducer of the wrong arity": module(
        "p = f32[4] parameter(0)", "z = f32[] constant(0)", "ROOT r = f32[] reduce(p, z), dimensions={0}, to_apply=neg",
        computations="neg {\n  x = f32[] parameter(0)\n  ROOT n = f32[] negate(x)\n}\n",
    ),
    "negative dimension": module("ROOT a = f32[-1] parameter(0)"),
    # (huge dimensions that fit int64 are valid text, as in XLA: see the trillion-element test below)
    "dimension past int64": module("ROOT a = f32[99999999999999999999999999999] parameter(0)"),
    "rank past the limit": module("ROOT a = f32[" + ",".join(["1"] * 65) + "] parameter(0)"),
    "deeply nested tuple shape": module("ROOT a = " + "(" * 100_000 + "f32[]" + ")" * 100_000 + " parameter(0)"),
    "deeply nested tuple literal": module("ROOT a = (f32[]) constant(" + "(" * 100_000 + "1" + ")" * 100_000 + ")"),
    "unclosed braces": module("ROOT a = f32[2] parameter(0), frontend_attributes={" + "{" * 100_000 + "}"),
    "huge parameter number": module("ROOT a = f32[2] parameter(99999999999999999999999999999)"),
    "parameter numbers with a gap": module("a = f32[2] parameter(0)", "ROOT b = f32[2] parameter(5)"),
    "tuple index out of range": module("a = (f32[2], s32[]) parameter(0)", "ROOT b = f32[2] get-tuple-element(a), index=5"),
    "transpose dims not a permutation": module("a = f32[2] parameter(0)", "ROOT b = f32[2] transpose(a), dimensions={9999999999999999999}"),
    "slice out of bounds": module("a = f32[4] parameter(0)", "ROOT b = f32[2] slice(a), slice={[3:5]}"),
    "slice stride zero": module("a = f32[4] parameter(0)", "ROOT b = f32[2] slice(a), slice={[0:4:0]}"),
    "dot dims out of range": module("a = f32[2,3] parameter(0)", "b = f32[3,5] parameter(1)",
                                    "ROOT c = f32[2,5] dot(a, b), lhs_contracting_dims={7}, rhs_contracting_dims={0}"),
    "literal of the wrong size": module("ROOT a = f32[2] constant({1,2,3,4,5})"),
    "literal value out of range": module("ROOT a = s8[2] constant({1,300})"),
    "nan for an integer": module("ROOT a = s32[2] constant({nan, 1})"),
    "fusion without calls": module("a = f32[2] parameter(0)", "ROOT b = f32[2] fusion(a), kind=kLoop"),
    "two ROOTs": module("ROOT a = f32[2] parameter(0)", "ROOT b = f32[2] negate(a)"),
    "two ENTRY computations": module("ROOT a = f32[] parameter(0)") + "ENTRY f {\n  ROOT a = f32[] parameter(0)\n}\n",
    "empty text": "",
    "only whitespace": " \n\t\n ",
    "only the header": "HloModule m",
    "NUL byte": "HloModule m\0\nENTRY e {\n  ROOT a = f32[] parameter(0)\n}\n",
    "right-to-left override in a name": module("ROOT a\u202e = f32[2] parameter(0)"),
    "unterminated string": module('ROOT a = f32[2] parameter(0), metadata={op_name="x}'),
    "non-UTF-8 bytes": b"HloModule m\nENTRY e {\n  ROOT \xff\xfe = f32[] parameter(0)\n}\n",
    "truncated UTF-8 sequence": "HloModule m\nENTRY e {\n  ROOT é = f32[] parameter(0)\n}\n".encode()[:-20] + b"\xc3",
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_module_gets_a_clear_error(name):
    refused(MALFORMED[name])


# ---- very long lines ----

LONG_LINES = {
    "1 MB name": module("ROOT " + "a" * MB + " = f32[2] parameter(0)"),
    "1 MB comment": module("ROOT a = f32[2] parameter(0) /*" + "x" * MB + "*/"),
    "1 MB of spaces": module("ROOT a = f32[2] parameter(0)" + " " * MB),
    "1 MB string": module('ROOT a = f32[2] parameter(0), metadata={op_name="' + "x" * MB + '"}'),
    "1 MB of escapes": module('ROOT a = f32[2] parameter(0), metadata={op_name="' + "\\n" * (MB // 2) + '"}'),
    "1 MB of nested braces": module("ROOT a = f32[2] parameter(0), backend_config={" + "{" * (MB // 2) + "}" * (MB // 2) + "}"),
    "1 MB of dimensions": module("ROOT a = f32[" + ",".join(["1"] * (MB // 2)) + "] parameter(0)"),
    "1 MB of attribute ints": module("a = f32[2] parameter(0)", "ROOT b = f32[2] transpose(a), dimensions={" + ",".join(["0"] * (MB // 2)) + "}"),
    "1 MB of operands": module("a = f32[2] parameter(0)", "ROOT b = f32[2] add(" + ",".join(["a"] * (MB // 2)) + ")"),
    "1 MB constant": module("ROOT a = f32[500000] constant({" + ",".join(["1"] * 500_000) + "})"),
    "1 MB tuple shape": module("ROOT a = (" + ",".join(["f32[]"] * (MB // 6)) + ") parameter(0)"),
    "1 MB of open parentheses": module("ROOT a = f32[2] parameter(0), backend_config=" + "(" * MB),
    "1 MB of brackets": "[" * MB,
    "1 MB of quotes": '"' * MB,
    "1 MB of newlines": "\n" * MB,
    "one 1 MB line module": "HloModule m ENTRY e { " + " ".join(f"a{i} = f32[] parameter({i})" for i in range(40_000)) + " ROOT r = f32[] parameter(0) }",
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(LONG_LINES))
def test_a_very_long_line_parses_or_gets_a_clear_error_in_linear_time(name):
    with time_bound(LONG_LINE_BOUND, what=name):
        parse_and_verify(LONG_LINES[name])


# ---- cycles, built by editing instructions (the parser resolves names, so it cannot make one) ----


def _with_cycle(text: str) -> hloscope.HloModule:
    """The module with its first instruction that has operands made to use the ROOT."""
    m = hloscope.parse_hlo(text)
    comp = m.entry_computation
    insts = list(comp.instructions)
    i = next(k for k, inst in enumerate(insts) if inst.operands)
    insts[i] = insts[i].replace(operands=(comp.root, *insts[i].operands[1:]))
    return m.with_computation(Computation(comp.name, tuple(insts), comp.root))


@pytest.mark.parametrize("path", [p for p in CORPUS_FILES if not p.name.endswith(".opt.hlo")], ids=lambda p: p.name)
def test_a_cycle_is_a_verifier_error_everywhere(path: Path):
    cyclic = _with_cycle(path.read_text())
    args = [np.zeros(p.shape.dims, p.shape.numpy_dtype) for p in cyclic.entry_computation.parameters]
    with time_bound():
        with pytest.raises(HloVerifierError, match="cycle"):
            cyclic.verify()
        with pytest.raises(HloVerifierError, match="cycle"):
            hloscope.optimize(cyclic)
        with pytest.raises(HloVerifierError, match="cycle"):
            hloscope.evaluate(cyclic, *args)


# ---- huge shapes read without allocating; they are refused where they would be allocated ----


def test_a_trillion_element_parameter_reads_without_allocating_and_is_refused_where_allocated():
    """Reading text must not depend on allocating it (XLA reads such gather/scatter shapes);
    the evaluator and the backends refuse the buffer before making it."""
    text = module("ROOT a = f32[1000000000000] parameter(0)")
    tracemalloc.start()
    try:
        m = hloscope.parse_hlo(text)
        m.verify()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 * MB, f"reading the shape allocated {peak} bytes"
    iota = hloscope.parse_hlo(module("ROOT a = s32[1000000,1000000] iota(), iota_dimension=0"))
    with pytest.raises(hloscope.EvaluationError, match="over the evaluator's limit"):
        hloscope.evaluate(iota)
    with pytest.raises(hloscope.NotSupportedError, match="not supported on cpu: .* over the limit"):
        hloscope.compile(iota)


def test_max_elements_is_configurable_and_applies_to_constants_with_values():
    ok = module("a = f32[10,10] parameter(0)", "b = f32[101] parameter(1)", "c = f32[2] constant({...})",
                "d = f32[100] constant({" + ", ".join(["1"] * 100) + "})", "ROOT t = (f32[10,10], f32[101]) tuple(a, b)")
    assert hloscope.parse_hlo(ok, max_elements=100)
    for text in (
        module("ROOT a = f32[101] constant({" + ", ".join(["1"] * 101) + "})"),
        module("ROOT a = (f32[2], f32[101]) constant(({1, 2}, {0}))"),
    ):
        with pytest.raises(HloParseError, match="over the limit of 100"):
            hloscope.parse_hlo(text, max_elements=100)


# ---- parsing never runs what it reads ----

PAYLOAD = "__import__('pathlib').Path({path!r}).touch()"


def test_parsing_never_evaluates_code(monkeypatch, tmp_path):
    sentinel = tmp_path / "ran"
    payload = PAYLOAD.format(path=str(sentinel))
    calls = []
    for name in ("eval", "exec", "compile"):
        monkeypatch.setattr(builtins, name, lambda *a, _n=name, **k: calls.append(_n))
    texts = [
        module(f'ROOT a = f32[2] parameter(0), metadata={{op_name="{payload}" source_file="{payload}"}}'),
        module(f"ROOT a = f32[2] parameter(0), backend_config={{{payload}}}"),
        module(f'ROOT a = f32[2] parameter(0), frontend_attributes={{x="{payload}"}}'),
        module("a = f32[2] parameter(0)", f'ROOT b = f32[2] custom-call(a), custom_call_target="{payload}"'),
        module(f"ROOT a = f32[2] constant({{{payload}}})"),
        module(f"ROOT a = f32[2] parameter(0) /* {payload} */"),
        f"HloModule {payload}\nENTRY e {{\n  ROOT a = f32[] parameter(0)\n}}\n",
    ]
    for text in texts:
        outcome = parse_and_verify(text)
        if not isinstance(outcome, Exception):
            outcome.to_text()
    assert not sentinel.exists() and not calls


def _dangerous_calls(path: Path) -> list[str]:
    """Calls of eval/exec/compile/__import__, pickle/marshal loads, ast.literal_eval in a file."""
    bad = {"eval", "exec", "compile", "__import__", "literal_eval", "loads", "load"}
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            owner = f.value.id if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) else ""
            if name in bad and owner not in ("re", "_re", "json"):
                found.append(f"{path.name}:{node.lineno} {owner + '.' if owner else ''}{name}")
    return found


def test_the_parser_has_no_way_to_run_code():
    ir = Path(hloscope.__file__).parent / "ir"
    files = [ir / "parser.py", ir / "scanner.py", ir / "literals.py", ir / "shape.py", ir / "attributes.py"]
    assert [c for f in files for c in _dangerous_calls(f)] == []


def test_regression_rank_64_is_the_limit():
    """A rank-65 shape parsed and verified, then failed in numpy ("maximum supported
    dimension for an ndarray is 64") at evaluation; 1 MB of dimensions also took seconds.
    Now the parser refuses ranks past numpy's limit where they are written."""
    assert hloscope.parse_hlo(module("ROOT a = f32[" + ",".join(["1"] * 64) + "] parameter(0)")).verify()
    error = refused(module("ROOT a = f32[" + ",".join(["1"] * 65) + "] parameter(0)"))
    assert isinstance(error, HloParseError) and "at most 64 dimensions" in str(error)
