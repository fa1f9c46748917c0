"""How often hloscope agrees with XLA (jaxlib) on valid and invalid HLO modules.

    PYTHONPATH=. .venv/bin/python benchmarks/xla_parser_agreement.py [generated] [mutated-seeds]

Three suites. The corpus: every module text of tests/whole_hlo (valid ones, invalid ones with
the defect each test names, the recorded jax dumps). Generated: whole modules from seeds
(tests/whole_hlo/module_generator.py; 200 by default), each one XLA parses and compiles.
Mutated: those modules with one defect put in (module_mutations.py; three per seed, 150
seeds by default), judged by XLA's parser or, when its parser reads them, by its verifier
(compiling the module for one CPU device runs HloVerifier first).

For the valid ones: does hloscope parse, verify and round-trip them (its print reads back
the same, and XLA reads its print as a module of the same instruction count)? For the
invalid ones: does hloscope reject them, and for the real defect (an error at the defect's
line, or naming its instruction, saying what the defect is)? Prints the tables and the
cases where they disagree. Mutations XLA accepts whole (no defect to XLA) are counted apart.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests" / "whole_hlo"))

import hloscope as hs  # noqa: E402

try:
    from jax._src.lib import xla_client  # pyright: ignore[reportPrivateImportUsage]  # noqa: F401
except ImportError:
    sys.exit("needs jax (the optional 'jax' extra)")

import corpus_cases  # pyright: ignore[reportMissingImports]  # noqa: E402
from module_generator import generate  # pyright: ignore[reportMissingImports]  # noqa: E402
from module_mutations import MUTATIONS, Mutation, about_the_defect, mutate  # pyright: ignore[reportMissingImports]  # noqa: E402
from xla_judge import xla_compile, xla_parse  # pyright: ignore[reportMissingImports]  # noqa: E402


@dataclass
class Row:
    cases: int = 0
    parsed: int = 0
    verified: int = 0
    round_tripped: int = 0


@dataclass
class BadRow:
    cases: int = 0
    rejected: int = 0
    for_the_defect: int = 0


def xla_verdict(text: str, compile_too: bool) -> str:
    """'parser' or 'verifier' (where XLA rejects it), or 'ok'."""
    try:
        xla_parse(text)
    except Exception:  # noqa: BLE001 - any rejection counts
        return "parser"
    if compile_too:
        try:
            xla_compile(text)
        except Exception:  # noqa: BLE001
            return "verifier"
    return "ok"


def judge_valid(text: str, row: Row, name: str, misses: list[str]) -> None:
    row.cases += 1
    stage = "parse"
    try:
        m = hs.parse_hlo(text)
        row.parsed += 1
        stage = "verify"
        m.verify()
        row.verified += 1
        stage = "round-trip"
        printed = m.to_text()
        assert hs.parse_hlo(printed).to_text() == printed, "our print does not read back the same"
        theirs = xla_parse(printed).to_string()
        assert hs.parse_hlo(theirs).instruction_count() == m.instruction_count(), "XLA read a different module"
        row.round_tripped += 1
    except Exception as e:  # noqa: BLE001 - a disagreement to report
        misses.append(f"  XLA accepts, hloscope fails to {stage}: {name}: {str(e).splitlines()[0][:110]}")


def judge_invalid(m: Mutation, row: BadRow, name: str, misses: list[str]) -> None:
    row.cases += 1
    try:
        hs.parse_hlo(m.text).verify()
    except Exception as e:  # noqa: BLE001
        row.rejected += 1
        if about_the_defect(e, m):
            row.for_the_defect += 1
        else:
            misses.append(f"  rejected for another reason: {name} ({m.kind}): {str(e).splitlines()[0][:110]}")
        return
    misses.append(f"  XLA rejects, hloscope accepts: {name} ({m.kind})")


def pct(a: int, n: int) -> str:
    return f"{a / n:.1%}" if n else "-"


def main() -> None:
    n_generated = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    n_mutated = int(sys.argv[2]) if len(sys.argv) > 2 else 150
    valid = {"corpus": Row(), "generated": Row()}
    invalid = {("corpus", "parser"): BadRow(), ("corpus", "verifier"): BadRow(),
               ("mutated", "parser"): BadRow(), ("mutated", "verifier"): BadRow()}
    misses: list[str] = []
    not_invalid = 0
    for name, text in corpus_cases.valid().items():
        if xla_verdict(text, compile_too=False) == "ok":
            judge_valid(text, valid["corpus"], name, misses)
    for name, m in corpus_cases.invalid().items():
        verdict = xla_verdict(m.text, compile_too=m.kind == "verifier")
        if verdict != "ok":
            judge_invalid(m, invalid[("corpus", verdict)], name, misses)
    for seed in range(n_generated):
        text = generate(seed).text
        if xla_verdict(text, compile_too=True) != "ok":
            misses.append(f"  the generator made a module XLA rejects: seed {seed}")
            continue
        judge_valid(text, valid["generated"], f"seed {seed}", misses)
    for seed in range(n_mutated):
        gen = generate(seed)
        for j in range(3):
            kind = (seed * 3 + j) % len(MUTATIONS)
            m = mutate(gen, kind, random.Random(seed * 100 + j))
            if m is None:
                continue
            verdict = xla_verdict(m.text, compile_too=True)
            if verdict == "ok":
                not_invalid += 1
                misses.append(f"  (not counted) XLA accepts this mutation whole: seed {seed} ({m.kind})")
                continue
            judge_invalid(m, invalid[("mutated", verdict)], f"seed {seed}", misses)
    print_tables(valid, invalid, not_invalid)
    print(f"\n{len(misses)} disagreements" + (":" if misses else ""))
    print("\n".join(misses[:40]))


def print_tables(valid: dict[str, Row], invalid: dict[tuple[str, str], BadRow], not_invalid: int) -> None:
    print("| valid (XLA accepts) | cases | parsed | verified | round-tripped (XLA reads our print) |")
    print("| --- | --- | --- | --- | --- |")
    total = Row()
    for suite, r in valid.items():
        print(f"| {suite} | {r.cases} | {pct(r.parsed, r.cases)} | {pct(r.verified, r.cases)} | "
              f"{pct(r.round_tripped, r.cases)} |")
        total = Row(*(a + b for a, b in zip(vars(total).values(), vars(r).values())))
    print(f"| **all** | {total.cases} | {pct(total.parsed, total.cases)} | {pct(total.verified, total.cases)} | "
          f"**{pct(total.round_tripped, total.cases)}** |")
    print("\n| invalid (XLA rejects) | rejected by XLA's | cases | hloscope rejects | for the real defect |")
    print("| --- | --- | --- | --- | --- |")
    bad = BadRow()
    for (suite, where), r in invalid.items():
        print(f"| {suite} | {where} | {r.cases} | {pct(r.rejected, r.cases)} | {pct(r.for_the_defect, r.cases)} |")
        bad = BadRow(bad.cases + r.cases, bad.rejected + r.rejected, bad.for_the_defect + r.for_the_defect)
    print(f"| **all** | | {bad.cases} | {pct(bad.rejected, bad.cases)} | **{pct(bad.for_the_defect, bad.cases)}** |")
    print(f"\n({not_invalid} mutations XLA accepts whole are not counted.)")


if __name__ == "__main__":
    main()
