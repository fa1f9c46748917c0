"""The trace listing: the traced program as readable text, one line per numpy-level operation
with the line of user code that made it, in the style of a JAX jaxpr.

    { lambda ; a:f32[128,256]. let
        b:f32[128,1] = max[axis=1 keepdims=True] a    # model.py:4  m = x.max(axis=1, keepdims=True)
        c:f32[128,256] = subtract a b                # model.py:5  e = np.exp(x - m)
        ...
      in (e,) }

Variables are letters, types are HLO's (`f32[128,1]`; a trailing `~` marks a weak type, a
Python scalar's). Captured values of an enclosing function are listed before the `;`.
Branches and loop bodies are nested programs under their equation.
"""

from __future__ import annotations

import html
import os

import numpy as np

from .tracer import Tracer


class _Namer:
    """Hands out jaxpr-style names a, b, ..., z, ba, bb, ... per traced value."""

    def __init__(self):
        self.names: dict = {}

    def __call__(self, frame, t: Tracer) -> str:
        local = frame.local(t)
        if local is None:
            return "?"
        if local.key not in self.names:
            self.names[local.key] = _letters(len(self.names))
        return self.names[local.key]


def _letters(n: int) -> str:
    out = ""
    while True:
        out = chr(ord("a") + n % 26) + out
        n //= 26
        if n == 0:
            return out


class Program:
    """A traced function as a listing: print it, or display it in Jupyter."""

    def __init__(self, frame, name: str = ""):
        self.frame = frame
        self.name = name
        self._lines = _program_lines(frame, _Namer(), 0)

    def lines(self) -> list[tuple[str, str]]:
        """(code, source comment) per line; the comment may be empty."""
        return list(self._lines)

    def __str__(self) -> str:
        width = max((len(code) for code, src in self._lines if src), default=0)
        width = min(width, 72)
        return "\n".join(f"{code.ljust(width)}  # {src}" if src else code for code, src in self._lines)

    def __repr__(self) -> str:
        return str(self)

    def _repr_pretty_(self, p, cycle) -> None:
        p.text(str(self))

    def _repr_html_(self) -> str:
        rows = []
        for code, src in self._lines:
            comment = f'  <span style="color:#888"># {html.escape(src)}</span>' if src else ""
            rows.append(html.escape(code) + comment)
        return '<pre style="line-height:1.35">' + "\n".join(rows) + "</pre>"


def _program_lines(frame, name, depth: int) -> list[tuple[str, str]]:
    pad = "  " * depth
    typed = lambda t: f"{name(frame, t)}:{t.aval.short()}"  # noqa: E731
    consts = " ".join(typed(inner) for _, inner in frame.captures.values())
    params = " ".join(typed(p) for p in frame.params)
    lines = [(f"{pad}{{ lambda {consts}; {params}. let", "")]
    for eq in frame.equations:
        lines.append((pad + "    " + _equation(frame, eq, name), _source(eq.source)))
        for label, sub in eq.subprograms:
            lines.append((f"{pad}      {label}:", ""))
            lines.extend(_program_lines(sub, name, depth + 4))
    outs = ", ".join(name(frame, o) for o in frame.outputs)
    lines.append((f"{pad}  in ({outs},) }}" if len(frame.outputs) == 1 else f"{pad}  in ({outs}) }}", ""))
    return lines


def _equation(frame, eq, name) -> str:
    outs = " ".join(f"{name(frame, o)}:{o.aval.short()}" for o in eq.outputs)
    if eq.op == "getitem":
        return f"{outs} = {_operand(frame, eq.inputs[0], name)}[{_index(frame, eq.params['index'], name)}]"
    params = " ".join(f"{k}={_param(v)}" for k, v in eq.params.items())
    ins = " ".join(_operand(frame, x, name) for x in eq.inputs)
    return f"{outs} = {eq.op}" + (f"[{params}]" if params else "") + (f" {ins}" if ins else "")


def _operand(frame, x, name) -> str:
    if isinstance(x, Tracer):
        return name(frame, x)
    if isinstance(x, np.ndarray) and x.ndim:
        return f"const:{x.dtype}{list(x.shape)}"
    return repr(x.item() if isinstance(x, (np.generic, np.ndarray)) else x)


def _param(v) -> str:
    if isinstance(v, np.dtype) or isinstance(v, type):
        return np.dtype(v).name
    if isinstance(v, (list, tuple)) and len(v) > 8:
        return f"({len(v)} values)"
    return repr(v).replace(" ", "")


def _index(frame, index, name) -> str:
    parts = []
    for i in index:
        if isinstance(i, slice):
            text = lambda v: "" if v is None else str(v)  # noqa: E731
            parts.append(f"{text(i.start)}:{text(i.stop)}" + (f":{i.step}" if i.step is not None else ""))
        elif i is Ellipsis:
            parts.append("...")
        elif isinstance(i, Tracer):
            parts.append(name(frame, i))
        elif isinstance(i, np.ndarray):
            parts.append(f"const:{i.dtype}{list(i.shape)}")
        else:
            parts.append(repr(i))
    return ", ".join(parts)


def _source(src) -> str:
    if src is None:
        return ""
    return f"{os.path.basename(src.file)}:{src.line}  {src.text}"
