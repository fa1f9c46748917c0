"""How often hloscope agrees with XLA's own parser (jaxlib) on the issue-22 cases.

    PYTHONPATH=. .venv/bin/python benchmarks/xla_parser_agreement.py

Every module text of tests/whole_hlo (valid ones, invalid ones, the recorded jax dumps) is
fed to both parsers. For the ones XLA accepts: does hloscope parse, verify and round-trip
them, and does XLA read hloscope's print with the same instruction count? For the ones XLA
rejects: does hloscope reject them? Prints the table and the texts where they disagree.
(The invalid cases XLA's parser accepts, leaving them to its verifier, are not counted.)
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests" / "whole_hlo"))

import hloscope as hs  # noqa: E402

try:
    from jax._src.lib import xla_client  # pyright: ignore[reportPrivateImportUsage]
except ImportError:
    sys.exit("needs jax (the optional 'jax' extra)")

import test_collectives as collectives  # pyright: ignore[reportMissingImports]  # noqa: E402
import test_element_types_ir as types_ir  # pyright: ignore[reportMissingImports]  # noqa: E402
import test_other_opcodes as other  # pyright: ignore[reportMissingImports]  # noqa: E402
import test_syntax_xla_accepts as syntax  # pyright: ignore[reportMissingImports]  # noqa: E402
import test_xla_reads_new_types as new_types  # pyright: ignore[reportMissingImports]  # noqa: E402


def cases() -> dict[str, str]:
    out = {f"collective {k}": collectives.module(v) for k, v in collectives.VALID.items()}
    # (an unknown mesh axis aborts XLA's process: that case is left out)
    out |= {f"bad collective {i}": collectives.module(b[0]) for i, b in enumerate(collectives.BAD_PARSE)
            if "mesh" not in b[0]}
    out |= {f"bad collective shape {i}": collectives.module(b[0]) for i, b in enumerate(collectives.BAD_VERIFY)}
    out |= {f"types {k}": v for k, v in new_types.MODULES.items()}
    out |= {f"constant {c}": types_ir.module(f"  ROOT p = {c}") for c, _ in types_ir.CONSTANTS}
    out |= {f"bad constant {b[0]}": types_ir.module(f"  ROOT p = {b[0]}") for b in types_ir.BAD_CONSTANTS}
    out |= {f"syntax {k}": v for k, v in syntax.ACCEPTED.items()}
    out |= {f"bad syntax {i}": r[0] for i, r in enumerate(syntax.REJECTED)}
    out |= {f"op {k}": other.module(v) for k, v in other.VALID.items()}
    out |= {f"dump {p.name}": p.read_text() for p in sorted((HERE.parent / "tests" / "whole_hlo" / "dumps").glob("*.hlo"))}
    return out


def ours(text: str) -> tuple[bool, str]:
    try:
        m = hs.parse_hlo(text)
        m.verify()
        printed = m.to_text()
        assert hs.parse_hlo(printed).to_text() == printed, "print does not round-trip"
        theirs = xla_client.hlo.hlo_module_from_text(printed).to_string()  # pyright: ignore[reportPrivateImportUsage]
        assert hs.parse_hlo(theirs).instruction_count() == m.instruction_count(), "XLA read a different module"
        return True, ""
    except Exception as e:  # noqa: BLE001 - any failure is a disagreement to report
        return False, str(e).splitlines()[0][:100]


def main() -> None:
    rows = {"valid": [0, 0], "invalid": [0, 0]}
    misses = []
    for name, text in cases().items():
        try:
            xla_client.hlo.hlo_module_from_text(text)  # pyright: ignore[reportPrivateImportUsage]
            xla_ok = True
        except Exception:  # noqa: BLE001
            xla_ok = False
        ok, why = ours(text)
        if not xla_ok:
            try:
                hs.parse_hlo(text).verify()
                rejected = False
            except Exception:  # noqa: BLE001
                rejected = True
            rows["invalid"][0] += 1
            rows["invalid"][1] += rejected
            if not rejected:
                misses.append(f"  XLA rejects, hloscope accepts: {name}")
        elif name.startswith(("bad ",)):
            continue  # invalid for XLA's verifier only: not judged by its parser
        else:
            rows["valid"][0] += 1
            rows["valid"][1] += ok
            if not ok:
                misses.append(f"  XLA accepts, hloscope: {why}: {name}")
    print("| judged by XLA's parser | cases | hloscope agrees | share |")
    print("| --- | --- | --- | --- |")
    for kind, (n, agree) in rows.items():
        what = "valid (parse, verify, round-trip, XLA reads our print)" if kind == "valid" else "invalid (rejected)"
        print(f"| {what} | {n} | {agree} | {agree / max(n, 1):.0%} |")
    print("\n".join(misses) or "no disagreements")


if __name__ == "__main__":
    main()
