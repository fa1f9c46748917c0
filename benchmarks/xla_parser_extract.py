"""Read the HLO texts out of XLA's `xla/hlo/parser/hlo_parser_test.cc` (a C++ file, read as text).

Two places hold them:
  tables  `CreateTestCases()` and friends: `{"Name", R"(HloModule ...)", ...}` entries, every one
          expected to parse, verify and print back (a NonRoundtripTestData entry's second text is
          its expected print, kept as `Name/output`);
  tests   `TEST_F(HloParserTest, Name) { ... }` bodies: a text bound to a variable (a raw string
          or adjacent C strings) and handed to ParseAndReturn(Un)verifiedModule, directly or
          through absl::StrCat / absl::StrFormat of such variables and literals (expanded here;
          each call is a case `Name`, `Name#2`...), with what the test asserts of that call.

Each case says its `form`, as XLA's parser decides it: "module" (the text starts with
`HloModule` or `ENTRY`, or a name then `{`) or "instruction" (a single instruction, which XLA's
parser wraps in a module of its own, taking operands as parameters).
"""
from __future__ import annotations

import re
from pathlib import Path

_RAW = re.compile(r'R"([^()\\\s]{0,16})\(')
_PLAIN = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_TEST_HEAD = re.compile(r"\bTEST(?:_F|_P)?\(\s*(\w+)\s*,\s*(\w+)\s*\)\s*\{")
_TABLE_HEAD = re.compile(r"std::vector<(\w*TestData)>\s+(\w+)\(\)\s*\{")
_TABLE_NAME = re.compile(r'^\s*"([A-Za-z0-9_.\-]+)"\s*,\s*$', re.M)
_BINDING = re.compile(r"\b(\w+)(?:\[\])?\s*=\s*(?=R\"|\")")
_PARSE_CALL = re.compile(r"ParseAndReturn(?:Un)?[Vv]erifiedModule\(\s*")
_BUILD_CALL = re.compile(r"\b(\w+)\s*=\s*absl::(StrCat|StrFormat)\(")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'"}


def _literal_at(src: str, pos: int) -> tuple[str, int] | None:
    """The value of the string literal(s) starting at `pos` (a raw string, or adjacent C
    strings) and where they end; None when no literal starts there."""
    m = _RAW.match(src, pos)
    if m:
        close = ")" + m.group(1) + '"'
        end = src.find(close, m.end())
        return (src[m.end():end], end + len(close)) if end >= 0 else None
    parts, end = [], pos
    while (p := _PLAIN.match(src, end)) is not None:
        parts.append(re.sub(r"\\(.)", lambda e: _ESCAPES.get(e.group(1), e.group(1)), p.group(1)))
        end = p.end()
        while end < len(src) and src[end] in " \t\n":
            end += 1
    return ("".join(parts), end) if parts else None


def _arguments(src: str, pos: int) -> tuple[list[str], int]:
    """The top-level comma-separated arguments of the call whose '(' is just before `pos`."""
    args, depth, start, i = [], 0, pos, pos
    while i < len(src):
        lit = _literal_at(src, i) if src[i] in 'R"' and (src[i] == '"' or src.startswith('R"', i)) else None
        if lit is not None:
            i = lit[1]
            continue
        c = src[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                args.append(src[start:i].strip())
                return args, i + 1
            depth -= 1
        elif c == "," and depth == 0:
            args.append(src[start:i].strip())
            start = i + 1
        i += 1
    return args, i


def form_of(text: str) -> str:
    """"module" or "instruction", as XLA's parser tells them apart: a module starts with
    `HloModule` or `ENTRY`, or with a name followed by `{` (comments aside)."""
    t = re.sub(r"/\*.*?\*/|//[^\n\r]*", " ", text, flags=re.S).lstrip()
    if re.match(r"(HloModule|ENTRY)\b", t) or re.match(r"%?[\w.\-]+\s*\{", t) or not t:
        return "module"
    return "instruction"


# ----------------------------------------------------------------------------- tests


def _bindings(body: str) -> dict[str, str]:
    """variable -> text, for every `name = <string literal>` in a test body."""
    out = {}
    for m in _BINDING.finditer(body):
        lit = _literal_at(body, m.end())
        if lit is not None:
            out[m.group(1)] = lit[0]
    return out


def _value(arg: str, env: dict[str, str]) -> str | None:
    """The text an argument expression stands for: a bound variable, a literal, or
    absl::StrCat / absl::StrFormat (with %s) of those."""
    arg = arg.strip()
    if arg in env:
        return env[arg]
    lit = _literal_at(arg, 0)
    if lit is not None and lit[1] >= len(arg.rstrip()):
        return lit[0]
    m = re.match(r"absl::(StrCat|StrFormat)\(", arg)
    if not m:
        return None
    args, _ = _arguments(arg, m.end())
    values = [_value(a, env) for a in args]
    if any(v is None for v in values):
        return None
    if m.group(1) == "StrCat":
        return "".join(v for v in values if v is not None)
    template, *rest = [v for v in values if v is not None]
    return template.replace("%%", "\0") % tuple(rest) if template.count("%s") == len(rest) else None


def _status_substrings(body: str) -> list[str]:
    """The substrings a test expects in an error message, in order: HasSubstr / ExpectHasSubstr
    whose subject is a status (a HasSubstr on a printed module is no error)."""
    found = []
    for m in re.finditer(r"\b(ExpectHasSubstr|EXPECT_THAT|ASSERT_THAT)\(", body):
        args, _ = _arguments(body, m.end())
        if len(args) < 2 or "status" not in args[0] and "Status" not in args[0]:
            continue
        rest = ",".join(args[1:])
        sub = re.search(r"HasSubstr\(", rest)
        text = _value(_arguments(rest, sub.end())[0][0], {}) if sub else _value(args[1], {})
        if text is not None:
            found.append(text)
    return found


_FAILS = re.compile(r"EXPECT_NE\(\s*absl::OkStatus\(\)|ASSERT_FALSE\([^;]*ok\(\)|ASSERT_TRUE\(\s*!|"
                    r"EXPECT_FALSE\([^;]*ok\(\)|StatusIs\(")


def _test_cases(fixture: str, name: str, body: str) -> list[dict]:
    env = _bindings(body)
    for m in _BUILD_CALL.finditer(body):  # `x = absl::StrFormat(template, "...")`
        value = _value(body[m.start(2) - len("absl::"):_arguments(body, m.end())[1]], env)
        if value is not None:
            env[m.group(1)] = value
    texts = []
    for m in _PARSE_CALL.finditer(body):
        args, _ = _arguments(body, m.end())
        text = _value(args[0], env) if args else None
        if text is not None:
            texts.append((text, "Unverified" not in m.group()))
    substrings = _status_substrings(body)
    fails = bool(substrings) or bool(_FAILS.search(body))
    cases = []
    for k, (text, verified) in enumerate(texts):
        sub = substrings[k] if len(substrings) == len(texts) else (substrings[0] if substrings else "")
        cases.append({"name": name if k == 0 else f"{name}#{k + 1}", "kind": f"test:{fixture}",
                      "form": form_of(text), "verified": verified, "expects_error": fails, "error_substr": sub,
                      "text": text})
    return cases


# ----------------------------------------------------------------------------- tables


def _table_cases(kind: str, function: str, body: str) -> list[dict]:
    cases, seen = [], {}
    for name_m in _TABLE_NAME.finditer(body):
        name = name_m.group(1)
        pos = name_m.end()
        while pos < len(body) and body[pos] in " \t\n":
            pos += 1
        lit = _literal_at(body, pos)
        texts = [lit[0]] if lit else []
        if lit and kind == "NonRoundtripTestData":  # its expected print follows
            rest = body[lit[1]:].lstrip(" \t\n,")
            out = _literal_at(rest, 0)
            texts += [out[0]] if out else []
        for k, text in enumerate(texts):
            full = name if k == 0 else f"{name}/output"
            seen[full] = seen.get(full, 0) + 1
            cases.append({"name": full if seen[full] == 1 else f"{full}#{seen[full]}", "kind": f"table:{function}",
                          "form": form_of(text), "verified": True, "expects_error": False, "error_substr": "",
                          "text": text})
    return cases


def _block_end(src: str, open_brace: int) -> int:
    """The index just past the `}` closing the block opened at `open_brace` (literals skipped)."""
    depth, i = 0, open_brace
    while i < len(src):
        lit = _literal_at(src, i) if src[i] == '"' or src.startswith('R"', i) else None
        if lit is not None:
            i = lit[1]
            continue
        if src.startswith("'", i) and src.find("'", i + 1) - i <= 3:  # a char literal such as '"' or '{'
            i = src.find("'", i + 1) + 1
            continue
        depth += {"{": 1, "}": -1}.get(src[i], 0)
        i += 1
        if depth == 0:
            return i
    return len(src)


def extract(path) -> list[dict]:
    """Every HLO text of the C++ file at `path` (see the module docstring), in file order, each
    {name, kind, form, verified, expects_error, error_substr, text}. A table entry's texts are
    expected to parse and verify; a test's `verified` says whether it calls
    ParseAndReturnVerifiedModule (else only the parser runs), and expects_error / error_substr
    what it asserts of that call."""
    src = Path(path).read_text()
    cases: list[dict] = []
    heads = sorted([(m.start(), m.end(), "table", m.group(1), m.group(2)) for m in _TABLE_HEAD.finditer(src)]
                   + [(m.start(), m.end(), "test", m.group(1), m.group(2)) for m in _TEST_HEAD.finditer(src)])
    for _, end, kind, a, b in heads:
        body = src[end:_block_end(src, end - 1)]
        cases += _table_cases(a, b, body) if kind == "table" else _test_cases(a, b, body)
    return cases
