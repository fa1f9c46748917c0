"""The StableHLO project's own interpreter tests (openxla/stablehlo, stablehlo/tests/interpret)
as a ruler for hloscope's StableHLO reader and legalization.

Each of those files is a list of chunks split by `// -----`; a chunk holds one test function
(sometimes with helper functions it calls) whose results are checked by the `check` dialect:

    func.func @add_op_test_si4() {
      %0 = stablehlo.constant dense<[0, 1, 2, -3, 0]> : tensor<5xi4>
      ...
      %2 = stablehlo.add %0, %1 : tensor<5xi4>
      check.expect_eq_const %2, dense<[-8, 0, 4, -6, 7]> : tensor<5xi4>
      func.return
    }

hloscope has no check dialect, so a case is turned into a plain program: the check lines are
taken out, the test function becomes `func.func public @main() -> (T1, ...)` and returns the
checked values (both operands of the two-operand checks), the chunk is wrapped in
`module { ... }`, and `hloscope.stablehlo.read` + `hloscope.evaluate` run it. The expected
constants are read with hloscope's own reader (`MlirReader.attribute()`) and
`constants.dense_array`.

Comparisons follow the check dialect's own definitions (stablehlo/tests/CheckOps.cpp and
stablehlo/reference/Element.cpp at the vendored commit):

* expect_eq / expect_eq_const: element by element `==` in the element type (APFloat's `==` for
  floats: NaN is never equal, -0.0 equals 0.0; complex: both parts).
* expect_almost_eq / expect_almost_eq_const: `areApproximatelyEqual` with the op's tolerance,
  default 1e-4 (CheckOps.td: `DefaultValuedOptionalAttr<F64Attr, "1e-4">`): equal values
  match; NaN matches only NaN; an infinity matches only itself; otherwise
  `|actual - expected| <= tolerance` in double precision (an absolute tolerance, not relative).
  Complex: each part.
* expect_close: the ULP distance (as CheckOps.cpp's ULPDifference: 0 for bitwise-equal or both
  NaN, the bit-pattern distance for finite values, "infinite" otherwise) must lie in
  [min_ulp_difference (default 0), max_ulp_difference (default 1)].

On top of the interpreter's checks, the result's shape and element type must be the expected
ones (the interpreter aborts when they differ).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

import hloscope
from hloscope.errors import HloscopeError
from hloscope.stablehlo.constants import dense_array
from hloscope.stablehlo.reader import MlirReader

HERE = Path(__file__).resolve().parent
INTERPRET_DIR = HERE / "interpret"

SPLIT = re.compile(r"^// -----\s*$", re.M)
FUNC = re.compile(r"^(\s*)func\.func\s+(?:(public|private|nested)\s+)?@([\w.$\-]+)\s*\(([^)]*)\)(.*)$")
CHECK = re.compile(r"^\s*check\.(\w+)\s+(.*)$")
VALUE = r"%[\w$.\-]+(?:#\d+)?"
RETURN = re.compile(r"^(\s*)(?:func\.)?return\s*$")


class WrongAnswer(AssertionError):
    """hloscope ran the case and its answer is not the interpreter test's."""


class HarnessError(Exception):
    """The case's text is of a shape this harness does not turn into a program (not hloscope's fault)."""


@dataclass
class Check:
    kind: str  # expect_eq_const, expect_eq, expect_almost_eq(_const), expect_close
    line: str  # the check line, as written
    actual: str  # the checked value (%name)
    mlir_type: str  # its MLIR type text
    expected_value: str | None = None  # the second operand (%name) of the two-operand checks
    expected_text: str | None = None  # the `dense<...> : tensor<...>` of the _const checks
    tolerance: float = 1e-4
    max_ulp: int = 1
    min_ulp: int = 0


@dataclass
class Case:
    file: str  # e.g. "add.mlir"
    function: str  # the test function's name
    index: int  # the chunk's number in its file (0-based)
    chunk: str  # the chunk's text, as written
    checks: list[Check] = field(default_factory=list)
    program: str = ""  # the chunk rewritten as a program returning the checked values
    harness_error: str | None = None  # why the chunk could not be turned into a program

    duplicate: bool = False  # another chunk of the file has a test function of the same name

    @property
    def id(self) -> str:
        """`add:add_op_test_si4`; `compare:compare_op_test_c128@chunk30` where a file reuses a name."""
        base = f"{self.file[:-len('.mlir')]}:{self.function}"
        return f"{base}@chunk{self.index}" if self.duplicate else base


# ---- turning a file into cases ----

def cases_of_file(path: Path) -> list[Case]:
    text = path.read_text()
    cases: list[Case] = []
    for index, chunk in enumerate(SPLIT.split(text)):
        lines = chunk.split("\n")
        for name, start, end in _functions(lines):
            if any(CHECK.match(line) for line in lines[start:end + 1]):
                try:
                    cases.append(_case(path.name, index, chunk, lines, name, start, end))
                except HarnessError as e:
                    cases.append(Case(path.name, name, index, chunk, harness_error=str(e)))
    names = [c.function for c in cases]
    for c in cases:
        c.duplicate = names.count(c.function) > 1
    return cases


def all_cases(directory: Path = INTERPRET_DIR) -> list[Case]:
    cases: list[Case] = []
    for path in sorted(directory.glob("*.mlir")):
        cases.extend(cases_of_file(path))
    return cases


def _functions(lines: list[str]) -> list[tuple[str, int, int]]:
    """(name, first line, last line) of each func.func in the chunk, by brace counting."""
    found = []
    i = 0
    while i < len(lines):
        m = FUNC.match(lines[i])
        if not m:
            i += 1
            continue
        depth, opened, j = 0, False, i
        while j < len(lines):
            depth += _braces(lines[j])
            opened = opened or depth > 0
            if opened and depth == 0:
                break
            j += 1
        found.append((m.group(3), i, j))
        i = j + 1
    return found


def _braces(line: str) -> int:
    code = _strip_strings(line.split("//")[0] if not line.lstrip().startswith('"') else line)
    return code.count("{") - code.count("}")


def _strip_strings(text: str) -> str:
    return re.sub(r'"(?:[^"\\]|\\.)*"', '""', text)


def _case(file: str, index: int, chunk: str, lines: list[str], name: str, start: int, end: int) -> Case:
    """The test function `name` (lines start..end of the chunk) as a program returning the
    values its checks look at."""
    case = Case(file, name, index, chunk)
    where = f"{file}:{name}"
    signature = FUNC.match(lines[start])
    if signature.group(4).strip():
        raise HarnessError(f"{where} takes arguments; the interpreter's tests with inputs are not used")
    if "{" not in signature.group(5):
        raise HarnessError(f"{where}: the body's brace is not on the signature's line")
    if any(f == "main" and f != name for f, _, _ in _functions(lines)):
        raise HarnessError(f"{where}: the chunk has another function named main")
    returns = [n for n in range(start + 1, end + 1) if RETURN.match(lines[n]) and _depth_in(lines, start, n) == 1]
    if len(returns) != 1:
        raise HarnessError(f"{where}: {len(returns)} func.return lines at the body's top level, not one")
    kept: list[int] = []
    n = 0
    while n < len(lines):
        if CHECK.match(lines[n]):
            statement, last = _statement(lines, n)
            if start <= n <= end:  # other functions' checks are dropped too: hloscope does not read them
                m = CHECK.match(statement)
                case.checks.append(_check(m.group(1), m.group(2), statement.strip()))
            n = last + 1
            continue
        kept.append(n)
        n += 1
    values, types = _returned(case.checks)
    out = []
    for n in kept:
        if n == start:
            out.append(f"{signature.group(1)}func.func public @main() -> ({', '.join(types)}) {{")
        elif n == returns[0]:
            out.append(f"{RETURN.match(lines[n]).group(1)}func.return {', '.join(values)} : {', '.join(types)}")
        else:
            out.append(lines[n])
    body = "\n".join(out)
    if not re.search(r"^\s*module\b", body, re.M):
        body = "module {\n" + body + "\n}\n"
    case.program = body
    return case


def _statement(lines: list[str], n: int) -> tuple[str, int]:
    """The check statement starting at line n, joined with its continuation lines (a long
    expected constant is written over several), and its last line's number."""
    text = lines[n].split("//")[0].rstrip()
    while n + 1 < len(lines) and (_open_brackets(text) > 0 or text.endswith(",")):
        n += 1
        text += " " + lines[n].split("//")[0].strip()
    return text, n


def _open_brackets(text: str) -> int:
    code = _strip_strings(text)
    return sum(code.count(c) for c in "<([{") - sum(code.count(c) for c in ">)]}") + code.count("->")


def _depth_in(lines: list[str], start: int, n: int) -> int:
    """The brace depth at line n of the function starting at `start` (1: its body's top level)."""
    return sum(_braces(line) for line in lines[start:n])


def _top_level_split(text: str, sep: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for ch in text:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += ch
    parts.append(current)
    return parts


def _check(kind: str, rest: str, line: str) -> Check:
    rest = rest.split("//")[0].strip()
    if kind in ("expect_eq_const", "expect_almost_eq_const"):
        m = re.match(rf"({VALUE})\s*,\s*(.*)$", rest)
        if not m:
            raise HarnessError(f"cannot read the check line: {line}")
        attr_and_more = m.group(2)
        # the attribute is `dense<...> : tensor<...>`; what follows is the tolerance, if any
        head, tail = _split_attribute(attr_and_more)
        check = Check(kind, line, m.group(1), head.rsplit(":", 1)[1].strip(), expected_text=head.strip())
        t = re.search(r"tolerance\s*=\s*([-+0-9.eE]+)", tail)
        if t:
            check.tolerance = float(t.group(1))
        return check
    if kind in ("expect_eq", "expect_almost_eq", "expect_close"):
        m = re.match(rf"({VALUE})\s*,\s*({VALUE})(.*)$", rest)
        if not m:
            raise HarnessError(f"cannot read the check line: {line}")
        tail = m.group(3)
        types_text = _top_level_split(tail, ":")[-1]
        check = Check(kind, line, m.group(1), _top_level_split(types_text, ",")[0].strip(),
                      expected_value=m.group(2))
        for key, attr in (("tolerance", "tolerance"), ("max_ulp_difference", "max_ulp"),
                          ("min_ulp_difference", "min_ulp")):
            t = re.search(rf"{key}\s*=\s*([-+0-9.eE]+)", tail)
            if t:
                setattr(check, attr, float(t.group(1)) if attr == "tolerance" else int(t.group(1)))
        return check
    raise HarnessError(f"check.{kind} is not used by this harness: {line}")


def _split_attribute(text: str) -> tuple[str, str]:
    """`dense<...> : tensor<...> {tolerance = ...}` -> (`dense<...> : tensor<...>`, the rest)."""
    i = text.index("dense<") + len("dense")
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "<":
            depth += 1
        elif text[j] == ">":
            depth -= 1
            if depth == 0:
                break
    after = text[j + 1:]
    m = re.match(r"\s*:\s*", after)
    if not m:
        raise HarnessError(f"the expected value has no type: {text}")
    k = m.end()
    depth = 0
    for end in range(k, len(after)):
        if after[end] == "<":
            depth += 1
        elif after[end] == ">":
            depth -= 1
            if depth == 0:
                break
    return text[:j + 1] + after[:end + 1], after[end + 1:]


def _returned(checks: list[Check]) -> tuple[list[str], list[str]]:
    values, types = [], []
    for c in checks:
        values.append(c.actual)
        types.append(c.mlir_type)
        if c.expected_value is not None:
            values.append(c.expected_value)
            types.append(c.mlir_type)
    return values, types


# ---- running a case ----

def expected_array(text: str) -> np.ndarray:
    """The `dense<...> : tensor<...>` text as a numpy array, by hloscope's own reader."""
    reader = MlirReader(text, "StableHLO", "pretty")
    return dense_array(reader.attribute())


def run_case(case: Case) -> None:
    """Read, legalize and evaluate the case; raise WrongAnswer when a check fails. hloscope's
    own errors (HloParseError, NotSupportedError, ...) pass through."""
    if case.harness_error:
        raise HarnessError(case.harness_error)
    reading = hloscope.stablehlo.read(case.program)
    got = hloscope.evaluate(reading.module)
    results = list(got) if isinstance(got, tuple) else [got]
    values, _ = _returned(case.checks)
    if len(results) != len(values):
        raise WrongAnswer(f"{case.id}: {len(results)} results where {len(values)} values were returned")
    k = 0
    for check in case.checks:
        actual = np.asarray(results[k])
        k += 1
        if check.expected_value is not None:
            expected = np.asarray(results[k])
            k += 1
        else:
            expected = expected_array(check.expected_text)
        problem = compare(check, actual, expected)
        if problem:
            raise WrongAnswer(f"{case.id}: {check.line}\n  {problem}")


def compare(check: Check, actual: np.ndarray, expected: np.ndarray) -> str | None:
    """None when `actual` passes the check against `expected`, else what differs."""
    if actual.shape != expected.shape:
        return f"shape {actual.shape}, expected {expected.shape}"
    if actual.dtype != expected.dtype:
        return f"element type {actual.dtype}, expected {expected.dtype}"
    if check.kind in ("expect_eq", "expect_eq_const"):
        ok = _equal(actual, expected)
    elif check.kind in ("expect_almost_eq", "expect_almost_eq_const"):
        ok = _almost_equal(actual, expected, check.tolerance)
    elif check.kind == "expect_close":
        ulps = _ulp_difference(actual, expected)
        ok = (ulps >= check.min_ulp) & (ulps <= check.max_ulp)
    else:  # pragma: no cover
        raise HarnessError(check.kind)
    ok = np.asarray(ok).reshape(-1)
    if ok.all():
        return None
    flat_a, flat_e = actual.reshape(-1), expected.reshape(-1)
    bad = np.flatnonzero(~ok)
    shown = "; ".join(f"at {tuple(int(k) for k in np.unravel_index(i, actual.shape))}: got {flat_a[i]!r}, "
                      f"expected {flat_e[i]!r}" for i in bad[:4])
    return (f"{len(bad)} of {ok.size} elements differ; {shown}"
            f"\n  got      {_short(actual)}\n  expected {_short(expected)}")


def _short(a: np.ndarray) -> str:
    return np.array2string(a, threshold=40, max_line_width=200).replace("\n", " ")


def _kind(a: np.ndarray) -> str:
    """pred, int, float or complex; ml_dtypes' types (int2/uint4, bfloat16, float8_*) are all
    numpy kind "V", so they are told apart by asking ml_dtypes."""
    if a.dtype == np.bool_:
        return "pred"
    if np.issubdtype(a.dtype, np.complexfloating):
        return "complex"
    if np.issubdtype(a.dtype, np.integer):
        return "int"
    if np.issubdtype(a.dtype, np.floating):
        return "float"
    import ml_dtypes

    try:
        ml_dtypes.iinfo(a.dtype)
        return "int"
    except (ValueError, TypeError):
        pass
    ml_dtypes.finfo(a.dtype)  # raises for anything else
    return "float"


def _equal(a: np.ndarray, e: np.ndarray) -> np.ndarray:
    kind = _kind(a)
    if kind == "int":
        return a.astype(np.int64) == e.astype(np.int64) if a.dtype.itemsize < 8 else a == e
    if kind == "pred":
        return a == e
    if kind == "complex":
        return (a.real == e.real) & (a.imag == e.imag)
    return a.astype(np.float64) == e.astype(np.float64)  # NaN != NaN, -0 == 0, as APFloat's ==


def _almost_equal(a: np.ndarray, e: np.ndarray, tolerance: float) -> np.ndarray:
    if _kind(a) == "complex":
        return _almost_equal(a.real, e.real, tolerance) & _almost_equal(a.imag, e.imag, tolerance)
    f, g = a.astype(np.float64), e.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        close = np.abs(f - g) <= tolerance
    both_finite = np.isfinite(f) & np.isfinite(g)
    return (f == g) | (np.isnan(f) & np.isnan(g)) | (both_finite & close)


_BITS = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}


def _ulp_difference(a: np.ndarray, e: np.ndarray) -> np.ndarray:
    if _kind(a) == "complex":
        return np.maximum(_ulp_difference(a.real, e.real), _ulp_difference(a.imag, e.imag))
    bits = _BITS[a.dtype.itemsize]
    ua = np.ascontiguousarray(a).view(bits).astype(np.uint64)
    ue = np.ascontiguousarray(e).view(bits).astype(np.uint64)
    sign = np.uint64(1) << np.uint64(8 * a.dtype.itemsize - 1)
    mag_a, mag_e = ua & ~sign, ue & ~sign
    neg_a, neg_e = (ua & sign) != 0, (ue & sign) != 0
    f, g = a.astype(np.float64), e.astype(np.float64)
    big = np.iinfo(np.uint64).max
    out = np.where(neg_a != neg_e, mag_a + mag_e,
                   np.where(mag_a > mag_e, mag_a - mag_e, mag_e - mag_a)).astype(np.uint64)
    finite = np.isfinite(f) & np.isfinite(g)
    out = np.where(finite, out, np.uint64(big))
    out = np.where(np.isnan(f) & np.isnan(g), np.uint64(0), out)
    out = np.where(ua == ue, np.uint64(0), out)
    return out


def outcome(case: Case) -> tuple[str, str]:
    """("pass", "") or (category, message) for a report: "hloscope error", "wrong answer", "crash"."""
    try:
        run_case(case)
    except WrongAnswer as e:
        return "wrong answer", str(e)
    except HloscopeError as e:
        return f"hloscope error ({type(e).__name__})", str(e)
    except HarnessError as e:
        return "harness", str(e)
    except Exception as e:  # noqa: BLE001 - a crash inside hloscope is a finding too
        return f"crash ({type(e).__name__})", str(e)
    return "pass", ""
