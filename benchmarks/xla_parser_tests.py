"""Measure hloscope's HLO parser against the HLO texts of XLA's own parser test suite.

XLA's `xla/hlo/parser/hlo_parser_test.cc` holds many HLO texts: table entries
({"Name", R"(HloModule ...)"} in CreateTestCases() and friends) and the texts
`TEST_F(HloParserTest, Name) { ... }` bodies hand to ParseAndReturn(Un)verifiedModule, some
expecting an error (benchmarks/xla_parser_extract.py reads them out).

    python benchmarks/xla_parser_tests.py [--source FILE] [--write] [--json OUT] [--only NAME]

Without --source it reads tests/xla_parser_cases/cases.json (written by --write) if present,
else /tmp/hlo_parser_test.cc.

Verdicts
  XLA:      jaxlib's `xla_client.hlo.hlo_module_from_text(text)` (the parser only: an *unverified*
            module, as ParseAndReturnUnverifiedModule). valid = it parses; its `to_string()` is
            the reference print. invalid = it raises; its message is recorded.
  hloscope: valid case handled = `hloscope.parse_hlo(text)`, `module.verify()`, then
            `module.to_text()` parsed back by jaxlib and printed, equal to jaxlib's print of the
            original, after the normalization in `normalize()` (exact equality is reported too).
            invalid case rejected = hloscope raises HloParseError or HloVerifierError (from parse
            or verify); any other exception is a crash; accepting it is a miss.
  Each hloscope step runs under signal.alarm(10 s); a case past it is recorded as a hang.
"""
from __future__ import annotations

import argparse
import json
import re
import signal
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from xla_parser_extract import extract  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
CASES_DIR = REPO / "tests" / "xla_parser_cases"
DEFAULT_SOURCE = Path("/tmp/hlo_parser_test.cc")
XLA_COMMIT = "be37698a8e3052c97b86146e84f28f30af0b81e3"
XLA_PATH = "xla/hlo/parser/hlo_parser_test.cc"
HANG_SECONDS = 10

# --------------------------------------------------------------------------- XLA's verdict


def _xc():
    from jax._src.lib import xla_client  # private: jaxlib's HLO parser  # pyright: ignore[reportPrivateImportUsage]
    return xla_client


def xla_parse(text: str) -> tuple[bool, str]:
    """(True, jaxlib's print) or (False, jaxlib's error message)."""
    try:
        return True, _xc().hlo.hlo_module_from_text(text).to_string()  # pyright: ignore[reportPrivateImportUsage]
    except Exception as e:  # noqa: BLE001 - jaxlib raises JaxRuntimeError (or XlaRuntimeError)
        return False, str(e)


def judge_xla(cases: list[dict]) -> None:
    for c in cases:
        ok, out = xla_parse(c["text"])
        c["xla_valid"] = ok
        c.pop("xla_text", None)
        c.pop("xla_error", None)
        c["xla_text" if ok else "xla_error"] = out


# --------------------------------------------------------------------------- normalization

_NAME = re.compile(r"%([A-Za-z_][\w.\-]*)")


def normalize(text: str) -> str:
    """jaxlib's print with names made positional: every %name becomes %n<k> by first
    appearance, the module's name becomes `m`, and the `HloModule` line's name only is dropped.
    Ids, metadata, attributes, layouts and everything else are compared as printed."""
    names: dict[str, str] = {}

    def sub(m):
        return "%" + names.setdefault(m.group(1), f"n{len(names)}")

    lines = text.strip().splitlines()
    if lines and lines[0].startswith("HloModule "):
        lines[0] = re.sub(r"^HloModule [^,\s]+", "HloModule m", lines[0])
    return _NAME.sub(sub, "\n".join(lines))


# --------------------------------------------------------------------------- hloscope's verdict


class _Hang(Exception):
    pass


def _alarm(_sig, _frm):
    raise _Hang()


def _timed(fn, *args):
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(HANG_SECONDS)
    try:
        return fn(*args)
    finally:
        signal.alarm(0)


def to_refuse(c: dict) -> bool:
    """A case hloscope must refuse: jaxlib rejects it, or its test expects an error (its
    verifier's, or a newer XLA parser's check)."""
    return not c["xla_valid"] or bool(c.get("expects_error"))


def judge_hloscope(c: dict) -> dict:
    """r: outcome (ok, mismatch, parse_error, verify_error, crash, hang, xla_reparse_error for
    cases to read; rejected, accepted, crash, hang for cases to refuse), msg, exact; and
    `unverified`: the verifier's error for a text the C++ test only parses."""
    import hloscope
    known = (hloscope.HloParseError, hloscope.HloVerifierError)
    refuse = to_refuse(c)
    step, unverified = "parse", ""
    try:
        m = _timed(hloscope.parse_hlo, c["text"])
        step = "verify"
        try:
            _timed(m.verify)
        except hloscope.HloVerifierError as e:
            if refuse or c.get("verified", True):
                raise
            unverified = _one(e)
        step = "to_text"
        out = _timed(m.to_text)
    except _Hang:
        return {"outcome": "hang", "step": step, "msg": f"> {HANG_SECONDS} s in {step}"}
    except known as e:
        if refuse:
            return {"outcome": "rejected", "step": step, "msg": _one(e)}
        return {"outcome": "parse_error" if step == "parse" else "verify_error", "step": step, "msg": _one(e)}
    except Exception as e:  # noqa: BLE001 - the point: which exceptions escape
        return {"outcome": "crash", "step": step, "msg": f"{type(e).__name__}: {_one(e)}"}
    if refuse:
        return {"outcome": "accepted", "step": "done", "msg": "hloscope accepted a text XLA rejects"}
    ok, back = xla_parse(out)
    if not ok:
        return {"outcome": "xla_reparse_error", "step": "reparse", "msg": _one(back)}
    if back == c["xla_text"]:
        return {"outcome": "ok", "step": "done", "msg": "", "exact": True, "unverified": unverified}
    if normalize(back) == normalize(c["xla_text"]):
        return {"outcome": "ok", "step": "done", "msg": "", "exact": False, "unverified": unverified}
    return {"outcome": "mismatch", "step": "compare", "msg": _first_diff(normalize(c["xla_text"]), normalize(back))}


def _one(e) -> str:
    s = " ".join(str(e).split())
    return s[:300]


def _first_diff(a: str, b: str) -> str:
    for x, y in zip(a.splitlines(), b.splitlines()):
        if x != y:
            return f"xla: {x.strip()[:140]} | hloscope: {y.strip()[:140]}"
    return f"line counts differ ({len(a.splitlines())} vs {len(b.splitlines())})"


_FAMILIES = [
    ("async wrappers", r"async|-start|-done|-update|execution_thread"),
    ("sharding", r"sharding|devices=|last_tile|manual|maximal|replicated"),
    ("names", r"name|duplicate|already|does not exist|unknown (instruction|computation)|undefined"),
    ("shapes/layouts", r"layout|shape|tile|\bS\(|memory space|dynamic|<=|\bT\(|dimension|element_size|tuple"),
    ("literals/constants", r"literal|constant|nan|inf|value"),
    ("attributes", r"attribute|config|metadata|frontend|statistics|origin|schedule|replica|channel|precision|window|dim_labels|aliasing"),
    ("opcodes", r"opcode|unknown op|not supported|unsupported"),
]


def family(c: dict, r: dict) -> str:
    if r["outcome"] in ("verify_error",):
        return "verifier"
    if r["outcome"] in ("mismatch", "xla_reparse_error"):
        base = "round-trip"
    elif r["outcome"] == "accepted":
        base = "too lenient"
    else:
        base = ""
    hay = (r.get("msg", "") + " " + c.get("xla_error", "")).lower()
    for fam, pat in _FAMILIES:
        if re.search(pat, hay):
            return f"{base}: {fam}" if base else fam
    return base or "other"


# --------------------------------------------------------------------------- driver


def load_cases(source: Path | None) -> tuple[list[dict], dict]:
    if source is None and (CASES_DIR / "cases.json").exists():
        data = json.loads((CASES_DIR / "cases.json").read_text())
        return data["cases"], data["header"]
    src = source or DEFAULT_SOURCE
    cases = extract(src)
    judge_xla(cases)
    return cases, {"source": f"openxla/xla {XLA_PATH}", "commit": XLA_COMMIT}


def write(cases: list[dict], header: dict) -> None:
    CASES_DIR.mkdir(parents=True, exist_ok=True)
    keep = ("name", "kind", "form", "verified", "expects_error", "error_substr", "text", "xla_valid", "xla_text", "xla_error")
    data = {"header": {**header, "license": "Apache-2.0 (the texts are from openxla/xla)",
                       "xla_verdict": "jaxlib xla_client.hlo.hlo_module_from_text (parse only, unverified)",
                       "jaxlib": _jaxlib_version()},
            "cases": [{k: c[k] for k in keep if k in c} for c in cases]}
    (CASES_DIR / "cases.json").write_text(json.dumps(data, indent=1) + "\n")


def _jaxlib_version() -> str:
    try:
        import jaxlib
        return jaxlib.__version__  # pyright: ignore[reportPrivateImportUsage]
    except Exception:  # noqa: BLE001
        return "?"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="XLA's own parser test cases, judged by jaxlib, against hloscope")
    ap.add_argument("--source", type=Path, help="hlo_parser_test.cc to extract (default: cases.json, else /tmp)")
    ap.add_argument("--write", action="store_true", help="write tests/xla_parser_cases/cases.json")
    ap.add_argument("--json", type=Path, help="write every case's verdicts here")
    ap.add_argument("--only", help="regex on case names")
    args = ap.parse_args(argv)

    cases, header = load_cases(args.source)
    if args.write:
        write(cases, header)
        print(f"wrote {CASES_DIR / 'cases.json'} ({len(cases)} cases)")
    todo = list(cases)
    if args.only:
        todo = [c for c in todo if re.search(args.only, c["name"])]
    forms = {f: sum(c.get("form") == f for c in cases) for f in ("module", "instruction")}
    print(f"source: {header.get('source')} @ {header.get('commit')}; {len(cases)} texts extracted "
          f"({forms['module']} modules, {forms['instruction']} single instructions), judging {len(todo)}")
    t0 = time.time()
    results = []
    for c in todo:
        r = judge_hloscope(c)
        r["family"] = "" if r["outcome"] in ("ok", "rejected") else family(c, r)
        results.append((c, r))
    valid = [(c, r) for c, r in results if not to_refuse(c)]
    invalid = [(c, r) for c, r in results if to_refuse(c)]
    v_ok = [x for x in valid if x[1]["outcome"] == "ok"]
    v_exact = [x for x in v_ok if x[1].get("exact")]
    i_ok = [x for x in invalid if x[1]["outcome"] == "rejected"]
    pct = lambda a, b: f"{100.0 * a / b:.0f}%" if b else "n/a"  # noqa: E731
    print(f"\nto read (jaxlib parses, the test expects no error): {len(valid)}; hloscope handles {len(v_ok)} "
          f"({pct(len(v_ok), len(valid))}) [exact print match {len(v_exact)}, match after normalize() "
          f"{len(v_ok) - len(v_exact)}]")
    for c, r in v_ok:
        if r.get("unverified"):
            print(f"  {c['name']}: its test only parses it; hloscope's verifier rejects it: {r['unverified'][:160]}")
    print(f"to refuse (jaxlib rejects, or the test expects an error): {len(invalid)}; hloscope refuses "
          f"{len(i_ok)} ({pct(len(i_ok), len(invalid))})")
    jaxlib_reads = [c["name"] for c, _ in invalid if c["xla_valid"]]
    if jaxlib_reads:
        print(f"  of these, jaxlib's parser reads {len(jaxlib_reads)} (its verifier's or a newer parser's error): "
              + ", ".join(jaxlib_reads))
    inv_not_expected = [x for x in invalid if not x[0].get("expects_error")]
    if inv_not_expected:
        print(f"  of these, {len(inv_not_expected)} come from tests that expect no error (XLA newer than jaxlib's): "
              + ", ".join(x[0]["name"] for x in inv_not_expected))
    crashes = [x for x in results if x[1]["outcome"] in ("crash", "hang")]
    print(f"crashes/hangs (non-hloscope exceptions): {len(crashes)}")
    for c, r in crashes:
        print(f"  {c['name']}: {r['outcome']} in {r['step']}: {r['msg'][:200]}")
    fails = [x for x in results if x[1]["outcome"] not in ("ok", "rejected")]
    print(f"\nfailures ({len(fails)}), by family:")
    for fam in sorted({r["family"] for _, r in fails}):
        group = [x for x in fails if x[1]["family"] == fam]
        print(f"\n[{fam}] ({len(group)})")
        for c, r in group:
            side = "to refuse" if to_refuse(c) else "to read"
            print(f"  {c['name']} ({side}, {r['outcome']}): {r['msg'][:220]}")
            if not c["xla_valid"]:
                print(f"      xla: {_one(c['xla_error'])[:200]}")
    print(f"\n{len(results)} cases in {time.time() - t0:.1f} s")
    if args.json:
        args.json.write_text(json.dumps([{"name": c["name"], "xla_valid": c["xla_valid"],
                                          "expects_error": c.get("expects_error"), **r} for c, r in results], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
