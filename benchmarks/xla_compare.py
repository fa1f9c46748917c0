"""hloscope's fusion and memory next to XLA:CPU's, case by case over the corpus.

For each corpus case, the JAX module (NAME.hlo) goes through hloscope's default pipeline;
XLA's own optimized module (NAME.opt.hlo, what jaxlib's CPU compiler produced) is read with
parse_hlo. Both are then described the same way: instructions in the entry computation
before and after, fusions by kind, and the peak of the memory arena. XLA's peak is what
hloscope's planner (plan_memory) makes of XLA's scheduled module, so both columns come from
the same allocator; XLA's own buffer assignment also counts its thread-local and constant
allocations, which are left out here.

    .venv/bin/python benchmarks/xla_compare.py                 # every corpus case
    .venv/bin/python benchmarks/xla_compare.py softmax layernorm

XLA's kCustom fusions are YNNPACK library calls (its dots and some reductions); hloscope
leaves dots unfused instead, so a `dot` in our column matches a kCustom in XLA's.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hloscope import parse_hlo  # noqa: E402
from hloscope.memory import plan_memory  # noqa: E402

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus"
COMPOSITE = ["softmax", "layernorm", "gelu_mlp", "mse_loss", "unary_chain", "row_reductions", "bmm_scale"]


def optimized(module):
    """hloscope's default pipeline; the fusion passes directly if it is not available."""
    try:
        from hloscope import optimize

        return optimize(module).module
    except ImportError:
        from hloscope.passes.fusion import InstructionFusion, MultiOutputFusion
        from hloscope.passes.pipeline import Pipeline
        from hloscope.passes.scheduler import MemoryScheduler

        return Pipeline("fusion-only", [InstructionFusion(), MultiOutputFusion(), MemoryScheduler()]).run(module)


def describe(module) -> dict:
    """Entry instruction count, fusions by kind, library calls, arena peak."""
    entry = module.entry_computation
    kinds = Counter(i.attr("kind") for i in entry if i.opcode == "fusion")
    calls = Counter(i.opcode for i in entry if i.opcode in ("dot", "convolution", "custom-call", "reduce", "while"))
    return {"instructions": len(entry), "total": module.instruction_count(), "fusions": kinds,
            "unfused": calls, "peak": plan_memory(module).peak_bytes}


def kinds_text(counter: Counter) -> str:
    return " ".join(f"{n}x{k.removeprefix('k')}" for k, n in sorted(counter.items())) or "-"


def row(name: str) -> list[str]:
    jax = parse_hlo((CORPUS / f"{name}.hlo").read_text())
    xla = parse_hlo((CORPUS / f"{name}.opt.hlo").read_text())
    before, ours, theirs = describe(jax), describe(optimized(jax)), describe(xla)
    return [
        name,
        f"{before['instructions']}->{ours['instructions']}",
        kinds_text(ours["fusions"]),
        kinds_text(ours["unfused"]),
        f"{before['peak']:,}->{ours['peak']:,}",
        str(theirs["instructions"]),
        kinds_text(theirs["fusions"]),
        kinds_text(theirs["unfused"]),
        f"{theirs['peak']:,}",
    ]


def main(names: list[str]) -> None:
    cases = json.loads((CORPUS / "manifest.json").read_text())["cases"]
    names = names or COMPOSITE + sorted(set(cases) - set(COMPOSITE))
    head = ["case", "entry instrs", "fusions", "unfused", "peak bytes", "XLA instrs", "XLA fusions",
            "XLA unfused", "XLA peak"]
    rows = [head] + [row(n) for n in names]
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    for i, r in enumerate(rows):
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
        if i == 0:
            print("  ".join("-" * w for w in widths))
    print("\nentry instrs: ENTRY instructions before -> after hloscope's default pipeline; peak: the arena "
          "plan_memory builds\n(temporaries and outputs, 64-byte aligned). XLA columns: the same measures on "
          "XLA:CPU's optimized module.")


if __name__ == "__main__":
    main(sys.argv[1:])
