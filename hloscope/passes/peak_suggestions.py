"""Suggestions that lower memory at the peak, each measured: the module is changed, planned
again (plan_memory, what the compile's memory stage runs) and its peak read off by
memory_at_peak. A suggestion is shown only if the new peak is lower; none is a guess.

    donate         a parameter live at the peak whose shape matches an output that is not
                   aliased yet: add `input_output_alias` (XLA's donation), so the output is
                   written into the caller's array instead of the arena;
    rematerialize  a cheap value live at the peak (a broadcast, an iota, an elementwise op or
                   a fusion of those, of parameters and constants) that waits there for a late
                   reader: recompute it just before that reader (a clone; the rest of the
                   schedule as it was);
    reorder        the entry in another order: the list scheduler started from other orders
                   (the written one, operands in reverse, the biggest operand first), and the
                   plain post order; the best of them.

    at = memory_at_peak(plan, module)
    at.suggestions = suggest(module, at)
"""

from __future__ import annotations

from ..ir.aliasing import Alias, InputOutputAlias
from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import HloModule
from ..ir.opcodes import is_elementwise
from ..ir.shape import ArrayShape
from ..memory import plan_memory
from ..memory.at_peak import MemoryAtPeak, PeakSuggestion, memory_at_peak
from ..memory.donated import output_producers
from ..memory.values import OUTSIDE, aliases, shape_bytes
from .scheduler import list_schedule

CHEAP = frozenset({"broadcast", "iota", "constant", "parameter", "reshape", "bitcast", "convert", "slice"})
MAX_REMATERIALIZED = 8  # candidates tried, biggest first
MAX_DONATED = 8  # parameters tried, biggest first (each try plans the module again)


def peak_of(module: HloModule) -> int:
    """Bytes live at the peak of `module`'s plan (what memory_at_peak's total says)."""
    return memory_at_peak(plan_memory(module)).total_bytes


def suggest(module: HloModule, at: MemoryAtPeak | None = None) -> list[PeakSuggestion]:
    """Every measured change that lowers the peak, biggest saving first."""
    before = peak_of(module)
    at = at if at is not None else memory_at_peak(plan_memory(module), module)
    found: list[PeakSuggestion] = []
    for kind, what, changed in [*_donations(module, at), *_rematerializations(module, at), *_reorders(module)]:
        after = peak_of(changed)
        if after < before:
            found.append(PeakSuggestion(kind, what, before, after, changed))
    found += _all_donations(module, [s for s in found if s.kind == "donate"], before)
    best_reorder = min((s for s in found if s.kind == "reorder"), key=lambda s: s.after_bytes, default=None)
    found = [s for s in found if s.kind != "reorder" or s is best_reorder]
    return sorted(found, key=lambda s: (s.after_bytes, s.kind))


def with_suggestions(at: MemoryAtPeak, module: HloModule) -> MemoryAtPeak:
    at.suggestions = suggest(module, at)
    return at


# ---- donate an input ----
def _donations(module: HloModule, at: MemoryAtPeak):
    """(kind, what, changed module) per parameter live at the peak that an unaliased output fits."""
    comp = module.entry_computation
    old = _aliases(module)
    donors, taken = {a.parameter for a in old}, {a.output_index for a in old}
    outputs = output_producers(comp)
    fits = {comp[o].shape for o in outputs.values()}
    params = [comp[r.instruction] for r in at.rows if r.kind == "parameter" and r.instruction in comp]
    params = [p for p in params if isinstance(p.shape, ArrayShape) and p.shape in fits and p.parameter_number not in donors]
    for p in params[:MAX_DONATED]:
        # an output made from the parameter first (w_new = w - lr * g), else the first that fits
        name = p.name
        for index, producer in sorted(outputs.items(), key=lambda io: name not in comp[io[1]].operands):
            made = comp[producer]
            if index not in taken and made.opcode not in OUTSIDE and made.shape == p.shape:
                number = p.parameter_number or 0
                alias = InputOutputAlias((*old, Alias(index, number)))
                out = "the result" if not index else f"output {{{index[0]}}}"
                what = (f"donate parameter {p.name} (number {number}) to {out} ({producer}, {p.shape}), if the "
                        f"caller has no further use for it: input_output_alias={alias}")
                yield "donate", what, module.replace(attrs={**module.attrs, "input_output_alias": alias})
                break


def _aliases(module: HloModule) -> tuple[Alias, ...]:
    config = module.attrs.get("input_output_alias")
    return config.aliases if isinstance(config, InputOutputAlias) else ()


def _all_donations(module: HloModule, helpful: list[PeakSuggestion], before: int) -> list[PeakSuggestion]:
    """The donations that each lower the peak, together (measured too)."""
    if len(helpful) < 2:
        return []
    old = _aliases(module)
    new = [a for s in helpful if s.module is not None for a in _aliases(s.module)[len(old):]]
    alias = InputOutputAlias((*old, *new))
    changed = module.replace(attrs={**module.attrs, "input_output_alias": alias})
    after = peak_of(changed)
    if after >= min(s.after_bytes for s in helpful):
        return []
    return [PeakSuggestion("donate", f"donate all {len(new)} of them: input_output_alias={alias}", before, after, changed)]


# ---- rematerialize a cheap value ----
def _cheap(inst: Instruction, comp: Computation, module: HloModule) -> bool:
    """Made from parameters and constants by ops that cost about what writing the result does."""
    if any(comp[o].opcode not in OUTSIDE for o in inst.operands):
        return False
    if inst.opcode == "fusion":
        calls = inst.attr("calls")
        return isinstance(calls, str) and all(i.opcode in CHEAP or is_elementwise(i.opcode)
                                              for i in module.computation(calls))
    return inst.opcode in CHEAP - OUTSIDE or is_elementwise(inst.opcode)


def _rematerializations(module: HloModule, at: MemoryAtPeak):
    comp = module.entry_computation
    position = {i.name: n for n, i in enumerate(comp.instructions)}
    rows = [r for r in at.rows if r.kind == "temporary" and r.instruction == r.label and r.bytes > 0]
    for row in rows[:MAX_REMATERIALIZED]:
        inst = comp[row.instruction] if row.instruction in comp else None
        if inst is None or not _cheap(inst, comp, module):
            continue
        users = comp.users(inst.name)
        late = [u for u in users if position[u] > at.position]
        if not late or any(aliases(comp[u], comp) for u in users):
            continue
        changed = _recompute(module, comp, inst, late, position)
        first = min(late, key=position.__getitem__)
        what = (f"rematerialize {inst.name} ({inst.opcode}, {shape_bytes(inst.shape):,} bytes): made at position "
                f"{position[inst.name]}, read again at {position[first]} by {', '.join(sorted(late, key=position.__getitem__))}; "
                f"recompute it there")
        yield "rematerialize", what, changed


def _recompute(module: HloModule, comp: Computation, inst: Instruction, late: list[str],
               position: dict[str, int]) -> HloModule:
    """A clone of `inst` just before its first late user, which the late users read instead."""
    name = _fresh(f"{inst.name}.remat", comp)
    clone = inst.replace(name=name)
    if inst.opcode == "fusion":
        fused = module.computation(inst.attr("calls"))
        copy = fused.replace(name=_fresh(f"{fused.name}.remat", None, module))
        module = module.with_computation(copy)
        clone = clone.rename_calls({fused.name: copy.name})
    first = min(position[u] for u in late)
    swap = lambda i: i.replace(operands=tuple(name if o == inst.name else o for o in i.operands))  # noqa: E731
    out: list[Instruction] = []
    for n, i in enumerate(comp.instructions):
        if n == first:
            out.append(clone)
        out.append(swap(i) if i.name in late else i)
    return module.with_computation(comp.replace(out))


def _fresh(name: str, comp: Computation | None, module: HloModule | None = None) -> str:
    taken = (lambda n: n in comp) if comp is not None else (lambda n: module is not None and module.has_computation(n))
    k, candidate = 1, name
    while taken(candidate):
        k += 1
        candidate = f"{name}{k}"
    return candidate


# ---- reorder ----
def _reorders(module: HloModule):
    comp = module.entry_computation
    current = [i.name for i in comp.instructions]
    starts = {"the written order": comp.instructions,
              "operands in reverse": _depth_first(comp, lambda i: list(reversed(_deps(i)))),
              "the biggest operand first": _depth_first(comp, lambda i: sorted(_deps(i), key=lambda o: -_bytes(comp, o)))}
    orders = {"the plain post order (no list scheduler)": [i.name for i in comp.post_order()]}
    for start, insts in starts.items():
        orders[f"the list scheduler started from {start}"] = list_schedule(comp.replace(insts))
    seen = {tuple(current)}
    for how, order in orders.items():
        if tuple(order) in seen:
            continue
        seen.add(tuple(order))
        moved = sum(a != b for a, b in zip(order, current))
        changed = module.with_computation(comp.replace(tuple(comp[n] for n in order)))
        yield "reorder", f"run the entry in another order: {how} ({moved} of {len(order)} positions change)", changed


def _deps(inst: Instruction) -> list[str]:
    return list(inst.operands) + list(inst.control_predecessors)


def _bytes(comp: Computation, name: str) -> int:
    return shape_bytes(comp[name].shape) if name in comp else 0


def _depth_first(comp: Computation, visit) -> list[Instruction]:
    """A post order from the root (then any instruction it misses), operands in `visit` order."""
    order: list[Instruction] = []
    done: set[str] = set()
    for start in [comp.root, *(i.name for i in comp.instructions)]:
        stack = [(start, False)]
        while stack:
            name, expanded = stack.pop()
            if name in done or name not in comp:
                continue
            if expanded:
                done.add(name)
                order.append(comp[name])
                continue
            stack.append((name, True))
            stack.extend((d, False) for d in reversed(visit(comp[name])) if d not in done)
    return order
