"""The exercise check of notebook 05, "memory planning": a schedule of four_sums that reaches
the scheduler's peak. A wrong one is told what stays alive too long."""

from __future__ import annotations

from typing import Any

from ..ir.module import HloModule
from ..memory import plan_memory
from .exercises import Wrong, exercise
from .fusion import nbytes

BIG_BYTES = 16 * 1024  # the 256 KiB arrays; the row sums are 1 KiB


def with_schedule(module: HloModule, order: list[str]) -> HloModule:
    """`module` with its ENTRY's instructions in `order`, marked as scheduled."""
    entry = module.entry_computation
    new_entry = entry.replace(instructions=tuple(entry[name] for name in order))
    return module.with_computation(new_entry).replace(attrs={**module.attrs, "is_scheduled": True})


def order_problem(module: HloModule, order: Any) -> str | None:
    """Why `order` is not a valid schedule of module's ENTRY, or None if it is."""
    entry = module.entry_computation
    names = [i.name for i in entry]
    if not isinstance(order, (list, tuple)) or sorted(map(str, order)) != sorted(names):
        return "the order must name each instruction of the ENTRY (traced_order) exactly once"
    done: set[str] = set()
    for name in order:
        missing = [o for o in entry[name].operands if o not in done]
        if missing:
            return f"{name} runs before its operand {missing[0]}"
        done.add(name)
    return None


def most_alive(module: HloModule, order: list[str], big: bool) -> int:
    """The most values alive at once in `order`, counting only big (or only small) arrays."""
    entry = module.entry_computation
    position = {name: i for i, name in enumerate(order)}
    last_use = {name: position[name] for name in order}
    for name in order:
        for operand in entry[name].operands:
            last_use[operand] = max(last_use[operand], position[name])
    last_use[entry.root_instruction.name] = len(order)
    sizes = {name: nbytes(entry[name].shape) for name in order if entry[name].opcode not in ("parameter", "constant")}
    chosen = [n for n, size in sizes.items() if (size >= BIG_BYTES) == big]
    return max((sum(1 for n in chosen if position[n] <= t <= last_use[n]) for t in range(len(order))), default=0)


def check_schedule(module: HloModule, scheduler_peak: int, order: list[str]) -> None:
    """`order` must be a valid schedule of module's ENTRY whose planned peak is at most the
    scheduler's."""

    def rule(answer: list[str]) -> bool:
        problem = order_problem(module, answer)
        if problem:
            raise Wrong(problem)
        peak = plan_memory(with_schedule(module, list(answer))).peak_bytes
        if peak <= scheduler_peak:
            return True
        over = peak - scheduler_peak
        if most_alive(module, list(answer), big=True) > 1:
            raise Wrong(f"your peak is {over:,} bytes higher: several big arrays are alive at once "
                        "(sum each one right after computing it, so it dies before the next is made)")
        raise Wrong(f"your peak is {over:,} bytes higher although each big array already dies early: "
                    "now the small row sums (1 KiB each, the reduce outputs) pile up; add each one into "
                    "the running total as soon as it exists")

    exercise("my_order reaches the scheduler's peak", order, rule)
