"""The hand-written cases of tests/whole_hlo as one corpus, for the agreement benchmark:
valid module texts by name, and invalid ones with the defect each test names (its line
when the test gives one, and the message it expects). `kind` says which XLA judge to ask:
"parser" (its parser alone) or "verifier" (it compiles the module for one CPU device)."""

from __future__ import annotations

from pathlib import Path

import test_collectives as collectives  # pyright: ignore[reportMissingImports]
import test_element_types_ir as types_ir  # pyright: ignore[reportMissingImports]
import test_other_opcodes as other  # pyright: ignore[reportMissingImports]
import test_syntax_xla_accepts as syntax  # pyright: ignore[reportMissingImports]
import test_xla_parser_checks as checks  # pyright: ignore[reportMissingImports]
import test_xla_reads_new_types as new_types  # pyright: ignore[reportMissingImports]
from module_mutations import Mutation  # pyright: ignore[reportMissingImports]

DUMPS = Path(__file__).parent / "dumps"


def valid() -> dict[str, str]:
    out = {f"collective {k}": collectives.module(v) for k, v in collectives.VALID.items()}
    out |= {f"types {k}": v for k, v in new_types.MODULES.items()}
    out |= {f"constant {c}": types_ir.module(f"  ROOT p = {c}") for c, _ in types_ir.CONSTANTS}
    out |= {f"syntax {k}": v for k, v in syntax.ACCEPTED.items()}
    out |= {f"op {k}": other.module(v) for k, v in other.VALID.items()}
    out |= {f"check {k}": v for k, v in checks.VALID.items()}
    out |= {f"dump {p.name}": p.read_text() for p in sorted(DUMPS.glob("*.hlo"))}
    return out


def _line_of(text: str, piece: str) -> tuple[int, ...]:
    return tuple(n for n, line in enumerate(text.splitlines(), 1) if piece in line)[:1]


def invalid() -> dict[str, Mutation]:
    out: dict[str, Mutation] = {}
    # (an unknown mesh axis aborts XLA's process: that case is left out)
    for i, (body, line, _col, message) in enumerate(collectives.BAD_PARSE):
        if "mesh" not in body:
            out[f"bad collective {i}"] = Mutation("parser", collectives.module(body), (line,), message, "")
    for i, (body, message) in enumerate(collectives.BAD_VERIFY):  # multi-device: XLA's parser judges alone
        out[f"bad collective shape {i}"] = Mutation("parser", collectives.module(body), (), message, "r")
    for body, _col, message in types_ir.BAD_CONSTANTS:
        text = types_ir.module(f"  ROOT p = {body}")
        out[f"bad constant {body}"] = Mutation("parser", text, _line_of(text, "ROOT p ="), message, "")
    for i, (text, line, _col, message) in enumerate(syntax.REJECTED):
        out[f"bad syntax {i}"] = Mutation("parser", text, (line,), message, "")
    for i, (text, line, _col, message) in enumerate(checks.PARSE_REJECTED):
        out[f"bad check {i}"] = Mutation("parser", text, (line,), message, "")
    for i, (text, message) in enumerate(checks.VERIFY_REJECTED):
        out[f"bad check (verifier) {i}"] = Mutation("verifier", text, (), message, "")
    return out
