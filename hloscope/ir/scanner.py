"""A position-based scanner for HLO text: regex tokens at a cursor, and errors with a caret.

HLO's lexer is context dependent (`3x3` is a window size after `size=`, `1_2x0_1` is
padding after `padding=`, `{` after `f32[2]` may start a layout or a literal), so instead
of a separate token stream the parser asks for the token it expects at the cursor.
"""

from __future__ import annotations

import bisect
import re
from typing import NoReturn

from ..errors import HloParseError

_SPACE_START = frozenset(" \t\n\r/")
_SPACE = re.compile(r"(?:\s+|/\*.*?\*/|//[^\n\r]*)+", re.S)  # a // comment ends at \n or \r (old Mac ends)
NAME = re.compile(r"%?([A-Za-z_][A-Za-z0-9_.\-]*)")
INT = re.compile(r"[-+]?\d+")
NUMBER = re.compile(r"[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|inf|nan(?:\([^)]*\))?)")
STRING = re.compile(r'"(?:[^"\\]|\\.)*"')  # a string may span lines, as XLA's lexer allows


class Scanner:
    """A cursor over HLO text with helpers that either consume a token or raise HloParseError."""

    def __init__(self, text: str):
        self.text = text
        self.pos = 0
        self._line_starts: list[int] | None = None

    # ---- whitespace and simple tokens ----
    def skip(self) -> None:
        if self.text[self.pos : self.pos + 1] not in _SPACE_START:
            return
        m = _SPACE.match(self.text, self.pos)
        if m:
            self.pos = m.end()

    def at_end(self) -> bool:
        self.skip()
        return self.pos >= len(self.text)

    def peek(self, s: str) -> bool:
        self.skip()
        return self.text.startswith(s, self.pos)

    def peek_char(self) -> str:
        self.skip()
        return self.text[self.pos : self.pos + 1]

    def accept(self, s: str) -> bool:
        if self.peek(s):
            self.pos += len(s)
            return True
        return False

    def expect(self, s: str, what: str | None = None) -> None:
        if not self.accept(s):
            self.fail(f"expected {what or repr(s)}, found {self.describe_here()}")

    def match(self, pattern: re.Pattern) -> re.Match | None:
        self.skip()
        m = pattern.match(self.text, self.pos)
        if m:
            self.pos = m.end()
        return m

    def keyword(self, word: str) -> bool:
        """Consume `word` only when it is a whole identifier (not a prefix of a longer name)."""
        self.skip()
        end = self.pos + len(word)
        if self.text.startswith(word, self.pos) and not _is_name_char(self.text[end : end + 1]):
            self.pos = end
            return True
        return False

    # ---- typed tokens ----
    def name(self, what: str = "a name") -> str:
        m = self.match(NAME)
        if not m:
            self.fail(f"expected {what}, found {self.describe_here()}")
        return m.group(1)

    def integer(self, what: str = "an integer") -> int:
        m = self.match(INT)
        if not m:
            self.fail(f"expected {what}, found {self.describe_here()}")
        return int(m.group())

    def try_integer(self) -> int | None:
        m = self.match(INT)
        return int(m.group()) if m else None

    def string(self) -> str:
        m = self.match(STRING)
        if not m:
            if self.peek('"'):
                self.fail("unterminated string: no closing '\"' follows")
            self.fail(f"expected a string, found {self.describe_here()}")
        return _unescape(m.group()[1:-1])

    def balanced(self) -> str:
        """Text of one balanced `{...}`, `(...)` or `[...]` group, or of one bare token.

        Used for attributes hloscope keeps verbatim. Strings inside are skipped whole.
        """
        self.skip()
        start = self.pos
        text = self.text
        if text[start : start + 1] not in "{([":
            if text.startswith('"', start):
                if not self.match(STRING):
                    self.fail("unterminated string")
                return text[start : self.pos]
            m = re.compile(r"[^,\s{}()\[\]]+").match(text, start)
            if not m:
                self.fail(f"expected a value, found {self.describe_here()}")
            self.pos = m.end()
            return m.group()
        depth, i = 0, start
        while i < len(text):
            c = text[i]
            if c == '"':
                m = STRING.match(text, i)
                if not m:
                    self.pos = i
                    self.fail("unterminated string")
                i = m.end()
                continue
            if c in "{([":
                depth += 1
            elif c in "})]":
                depth -= 1
                if depth == 0:
                    self.pos = i + 1
                    return text[start : self.pos]
            i += 1
        self.pos = start
        self.fail("unbalanced brackets: this group is never closed")

    # ---- errors ----
    def describe_here(self) -> str:
        self.skip()
        if self.pos >= len(self.text):
            return "end of input"
        if self.text.startswith("/*", self.pos):  # (skip() passes over every closed one)
            return "a /* comment that is never closed with */"
        m = re.compile(r"\S{1,20}").match(self.text, self.pos)
        return repr(m.group()) if m else repr(self.text[self.pos])

    def location(self, pos: int) -> tuple[int, int, str]:
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        line = bisect.bisect_right(self._line_starts, pos) - 1
        start = self._line_starts[line]
        end = self.text.find("\n", start)
        source = self.text[start : end if end >= 0 else len(self.text)]
        return line + 1, pos - start + 1, source

    def fail(self, message: str, pos: int | None = None) -> NoReturn:
        """Raise HloParseError at `pos` (default: the next token) with line, column and caret."""
        if pos is None:
            self.skip()
        line, col, source = self.location(self.pos if pos is None else pos)
        raise HloParseError(message, line, col, source)


def _is_name_char(c: str) -> bool:
    return bool(c) and (c.isalnum() or c in "_.-")


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "'": "'"}


def _unescape(s: str) -> str:
    if "\\" not in s:
        return s
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c == "\\" and i + 1 < len(s):
            out.append(_ESCAPES.get(s[i + 1], s[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)
