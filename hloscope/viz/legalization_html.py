"""The legalization of StableHLO to HLO, shown: each MLIR operation beside the HLO
instructions it became and the user's source line it came from."""

from __future__ import annotations

import html
import re
from collections import defaultdict

from .ir_text import code_block

_LOCATION = re.compile(r"\s*loc\((?:[^()]|\([^()]*\))*\)\s*$")
MAX_ROWS = 400


def mlir_html(reading) -> str:
    """The MLIR text as it was given."""
    return code_block(reading.mlir_text, "asm")


def legalization_html(reading) -> str:
    """A table: MLIR line and operation -> HLO instructions -> source line."""
    lines = reading.mlir_text.splitlines()
    by_line: dict[int, list] = defaultdict(list)
    for link in reading.links:
        by_line[link.mlir_line].append(link)
    rows = []
    for number in sorted(by_line)[:MAX_ROWS]:
        links = by_line[number]
        operation = _LOCATION.sub("", lines[number - 1].strip()) if 0 < number <= len(lines) else links[0].operation
        if len(operation) > 140:
            operation = operation[:137] + "..."
        hlo = "<br>".join(f"<code>%{html.escape(k.instruction)}</code> <span class='hs-note'>in "
                          f"{html.escape(k.computation)}</span>" for k in links)
        source = links[0].source
        where = html.escape(source.where()) if source.where() else ""
        name = f"<br><span class='hs-note'>{html.escape(source.op_name)}</span>" if source.op_name else ""
        rows.append(f"<tr><td>{number}</td><td><code>{html.escape(operation)}</code></td><td>{hlo}</td>"
                    f"<td><code>{where}</code>{name}</td></tr>")
    more = (f"<p class='hs-note'>... {len(by_line) - MAX_ROWS:,} more operations</p>"
            if len(by_line) > MAX_ROWS else "")
    timing = (f"read {reading.read_seconds * 1e3:.1f} ms, legalized {reading.legalize_seconds * 1e3:.1f} ms, "
              f"HLO parsed {reading.parse_seconds * 1e3:.1f} ms")
    notes = "".join(f"<li>{html.escape(n)}</li>" for n in reading.legalized.notes)
    return ("<div class='hloscope'>"
            f"<h4>legalize StableHLO to HLO</h4><p>{html.escape(reading.summary())} ({timing})</p>"
            + (f"<ul>{notes}</ul>" if notes else "")
            + "<table class='hs-table'><thead><tr><th>MLIR line</th><th>operation</th><th>HLO instructions</th>"
            "<th>source</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table>" + more + "</div>")


def legalization_text(reading) -> str:
    """The same table as text: one line per MLIR operation."""
    lines = reading.mlir_text.splitlines()
    by_line: dict[int, list] = defaultdict(list)
    for link in reading.links:
        by_line[link.mlir_line].append(link)
    out = [reading.summary()]
    for number in sorted(by_line):
        links = by_line[number]
        operation = _LOCATION.sub("", lines[number - 1].strip()) if 0 < number <= len(lines) else links[0].operation
        where = links[0].source.where()
        out.append(f"{number:5}  {operation}\n       -> " + ", ".join(f"%{k.instruction}" for k in links)
                   + (f"   [{where}]" if where else ""))
    return "\n".join(out)
