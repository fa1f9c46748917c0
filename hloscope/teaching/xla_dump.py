"""The exercise checks of notebook 11, "reading a real XLA dump": each works out the right
answer from the record `hloscope.xla.load` made (and the dump's own text files), and when an
answer is wrong, says which likely mistake it matches.

    from hloscope.teaching.xla_dump import check_first_fusion_step
    check_first_fusion_step(c, first_fusion)
        ✓ the first snapshot with a fusion

The answers start as `...` (`not answered yet`); see hloscope.teaching.exercises.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from ..compilation.record import Compilation
from ..ir.module import HloModule
from ..xla.buffer_assignment import Allocation, read_buffer_assignment
from ..xla.dump_record import XlaDump
from .exercises import Wrong, exercise

def allocations(c: Compilation) -> list[Allocation]:
    """XLA's allocations for c's module, in its buffer assignment's order."""
    return read_buffer_assignment(dump_path(c, "-buffer-assignment.txt"))


def dump_path(c: Compilation, suffix: str) -> Path:
    """The dumped file (of c's module) whose name ends with `suffix`."""
    if not isinstance(c.source, XlaDump):
        raise TypeError(f"{c.title}: not a record read from an XLA dump (use hloscope.xla.load(folder))")
    path = c.source.files.file(suffix)
    if path is None:
        raise FileNotFoundError(f"{c.source.folder}: no file ending in {suffix!r} for module {c.source.module_id}")
    return Path(path)


def _step(c: Compilation, index: int) -> str:
    r = c.records[index]
    return f"step {index} ({r.pipeline}, after {r.name})"


def _has_fusion(module: HloModule) -> bool:
    return any(inst.opcode == "fusion" for _, inst in module.all_instructions())


def check_first_fusion_step(c: Compilation, answer: int) -> None:
    """Exercise 1: the index in c.records of the first snapshot that holds a `fusion`."""
    expected = next((i for i, r in enumerate(c.records) if _has_fusion(r.after)), None)
    if expected is None:
        raise ValueError("this dump has no snapshot with a fusion instruction: nothing to find")
    fusion_pass = next((i for i, r in enumerate(c.records) if r.name == "fusion"), None)

    def rule(got: Any) -> bool:
        if got == fusion_pass and got != expected:
            raise Wrong("the pass named 'fusion' is not the first to make fusion instructions: an earlier "
                        "pass wraps some instructions in fusions of another kind")
        if isinstance(got, int) and got == expected + 1:
            raise Wrong("one too far: c.records[i].after is the module right after step i")
        if isinstance(got, int) and 0 <= got < len(c.records) and got != expected:
            raise Wrong(f"{_step(c, got)} is " + ("too early" if got < expected else "too late"))
        return got == expected

    exercise("the first snapshot with a fusion", answer, rule,
             hint="look for the opcode 'fusion' in each step's module after it (c.records[i].after)")


def _entry_shrinks(c: Compilation, size) -> list[tuple[str, int]]:
    return [(r.name, size(r.before) - size(r.after)) for r in c.records]


def check_biggest_entry_shrink(c: Compilation, answer: tuple[str, int]) -> None:
    """Exercise 2: (pass name, instructions removed) of the step that shrinks the ENTRY
    computation the most."""
    shrinks = _entry_shrinks(c, lambda m: len(m.entry_computation))
    expected = max(shrinks, key=lambda s: s[1])
    whole = max(_entry_shrinks(c, HloModule.instruction_count), key=lambda s: s[1])

    def rule(answer: Any) -> bool:
        got = tuple(answer) if isinstance(answer, (tuple, list)) else answer
        if not isinstance(got, tuple) or len(got) != 2:
            raise Wrong("answer with a pair (step name, number removed)")
        if got == expected:
            return True
        if got == whole and whole != expected:
            raise Wrong("instruction_count() counts every computation, and a fusion moves instructions into "
                        "new fused computations rather than deleting them: count only the ENTRY computation's")
        if got[1] == -expected[1]:
            raise Wrong("give the number removed as a positive number: before minus after")
        if got[0] == expected[0]:
            raise Wrong("the step is right, the number removed is not")
        return False

    exercise("the step that shrinks the ENTRY computation the most", answer, rule,
             hint="compare len(r.before.entry_computation) with len(r.after.entry_computation) for every step r")


def fusion_kind(inst) -> str:
    """A fusion's kind, with a library fusion (kCustom) named by its backend_config's
    fusion_config kind, such as `__ynn_fusion`."""
    raw = inst.attr("backend_config")
    try:
        config = json.loads(str(raw)) if raw is not None else {}
    except json.JSONDecodeError:
        config = {}
    library = config.get("fusion_config", {}).get("kind") if isinstance(config, dict) else None
    return str(library or inst.attr("kind"))


def check_fusion_kinds(c: Compilation, answer: dict[str, int]) -> None:
    """Exercise 3: {kind: count} of the optimized ENTRY's fusions, library fusions named by
    their library kind (`__ynn_fusion`) instead of `kCustom`."""
    if c.optimized_module is None:
        raise ValueError(f"{c.title}: the dump has no optimized module (*_after_optimizations.txt) to count in")
    fusions = [i for i in c.optimized_module.entry_computation if i.opcode == "fusion"]
    expected = dict(Counter(fusion_kind(i) for i in fusions))

    def rule(got: Any) -> bool:
        if not isinstance(got, dict):
            raise Wrong("answer with a dict {kind: count}")
        if "kCustom" in got:
            raise Wrong("name each kCustom fusion by the library that runs it: "
                        "json.loads(str(inst.attr('backend_config')))['fusion_config']['kind']")
        if sum(got.values()) != len(fusions):
            raise Wrong(f"the optimized module's ENTRY computation has {len(fusions)} fusion instructions in all")
        return got == expected

    exercise("fusions by kind in the optimized module", answer, rule,
             hint="inst.attr('kind') for each fusion of the ENTRY computation, and its backend_config's fusion_config kind")


def check_donated_parameters(c: Compilation, answer: set[int]) -> None:
    """Exercise 4: the entry parameters whose buffers XLA reuses for outputs (donated and
    taken): their allocation in the buffer assignment is also maybe-live-out."""
    found = allocations(c)
    expected = {a.parameter for a in found if a.parameter is not None and a.live_out}
    every = {a.parameter for a in found if a.parameter is not None}

    def rule(got: Any) -> bool:
        if not isinstance(got, (set, frozenset)):
            raise Wrong("answer with a set of parameter numbers, such as {0, 3}")
        if got == every and every != expected:
            raise Wrong("not every parameter: only those whose allocation is also maybe-live-out (the outputs "
                        "are written into them); the ones not donated keep their own buffers")
        return got == expected

    exercise("the parameters XLA writes outputs into", answer, rule,
             hint="the allocations whose header names a parameter and also says maybe-live-out")


def check_temp_bytes(c: Compilation, answer: int) -> None:
    """Exercise 5: the bytes of XLA's arena of temporaries (the preallocated-temp allocation)."""
    found = allocations(c)
    expected = sum(a.size for a in found if a.kind == "temporary")

    def rule(got: Any) -> bool:
        if got == c.xla_memory_total_bytes and got != expected:
            raise Wrong("that is the total of every allocation (parameters, outputs, constants too): only the temps")
        if isinstance(got, int) and 0 < got < expected:
            raise Wrong("the temps share one allocation, each value at an offset: give the allocation's size, "
                        "not one value's")
        return got == expected

    exercise("the bytes of XLA's temp arena", answer, rule, hint="the size of the allocation marked preallocated-temp")
