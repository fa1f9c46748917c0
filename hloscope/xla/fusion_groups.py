"""The fusions of an optimized module, each with the original operations it covers.

Two compilers' fusions of one input module are compared by what they cover, not by their
names: XLA renames every instruction it clones into a fused computation (`%add.32` of the
input becomes `%add.7` inside `%fused_computation.6`), so names only identify hloscope's
instructions. What both keep is the metadata JAX wrote on each operation: `op_name` (e.g.
`jit(f)/mul`) and `stack_frame_id` (the Python call site). An instruction's *source* is that
pair; without metadata it is its name, which only matches an instruction of the same name.

One difference is undone (`SourceMap`): JAX lowers a nested jit (`jnp.tril`, `jnp.where`) to a
`call`, and XLA's call inliner prefixes the inlined ops' op_name with the call's
(`ge` becomes `jit(f)/jit(tril)/ge`) and gives them new stack frames, where hloscope's
inliner keeps them as they were. Both sides' names for such an op become
(`jit(f)/jit(tril)/ge`, "inlined").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ir.instruction import Instruction
from ..ir.module import HloModule

Source = tuple[str, ...]

# Ops both compilers copy into every fusion that reads them, or that only move or name
# data: they join two fusions into one component only when a fusion holds nothing else.
CHEAP = frozenset(
    "parameter constant broadcast iota bitcast reshape copy tuple get-tuple-element".split())


def source_of(inst: Instruction) -> Source:
    """(op_name, stack frame) from the metadata JAX writes; the name where there is none."""
    md = inst.metadata
    op_name = md.op_name if md is not None else None
    if md is None or not op_name:
        return ("name", inst.name)
    frame = md.get("stack_frame_id")
    line = md.get("source_line")
    where = f"frame {frame}" if frame is not None else (f"line {line}" if line is not None else "")
    return (op_name, where)


def describe_source(source: Source) -> str:
    """`jit(f)/mul @frame 9`, or the bare name of an instruction without metadata."""
    return source[1] if source[0] == "name" else f"{source[0]} @{source[1]}".rstrip(" @")


@dataclass(frozen=True)
class FusionGroup:
    """One fusion instruction: its kind, the instructions of its fused computation (not its
    parameters) and their sources (`heavy`: those of the ops that are not CHEAP)."""

    compiler: str  # "XLA" or "hloscope"
    name: str
    kind: str  # loop, input, output, custom
    instructions: tuple[str, ...]
    opcodes: tuple[str, ...]
    sources: frozenset[Source]
    heavy: frozenset[Source]

    @property
    def keys(self) -> frozenset[Source]:
        """What matching compares: the heavy sources, or all of them for a fusion of
        cheap ops only (a transpose as copy + bitcast)."""
        return self.heavy or self.sources

    @property
    def size(self) -> int:
        return len(self.instructions)

    def describe(self) -> str:
        ops = sorted(set(self.opcodes) - {"parameter"})
        return f"{self.name} ({self.kind}: {self.size} ops, {', '.join(ops[:5])}{', ...' if len(ops) > 5 else ''})"


@dataclass(frozen=True)
class SourceMap:
    """Sources of ops inside called computations, as XLA's call inliner renames them."""

    inlined: dict[Source, Source] = field(default_factory=dict)  # (op, frame) in a callee -> the inlined name
    inlined_names: frozenset[str] = frozenset()

    def __call__(self, source: Source) -> Source:
        if source in self.inlined:
            return self.inlined[source]
        return (source[0], "inlined") if source[0] in self.inlined_names else source

    @classmethod
    def of(cls, module: HloModule) -> "SourceMap":
        """From the input module: each op in a computation reached through `call`s, under
        the op_names of the calls (a source seen at two call sites stays as it is)."""
        found: dict[Source, set[Source]] = {}
        todo = [(module.entry, "")]
        while todo:
            comp, prefix = todo.pop()
            for inst in module.computation(comp):
                op_name = inst.metadata.op_name if inst.metadata is not None else None
                if inst.opcode == "call":
                    todo += [(callee, "/".join(p for p in (prefix, op_name or "") if p))
                             for callee in inst.called_computations()]
                elif prefix and op_name:
                    found.setdefault(source_of(inst), set()).add((f"{prefix}/{op_name}", "inlined"))
        inlined = {raw: next(iter(names)) for raw, names in found.items() if len(names) == 1}
        return cls(inlined, frozenset(name for names in found.values() for name, _ in names))


def fusion_groups(module: HloModule, compiler: str, canon: SourceMap | None = None) -> list[FusionGroup]:
    """Every fusion instruction outside fused computations, in module order."""
    fused = {name for _, i in module.all_instructions() if i.opcode == "fusion" for name in i.called_computations()}
    groups = []
    for comp in module.computations:
        if comp.name in fused:
            continue
        for inst in comp:
            if inst.opcode == "fusion":
                groups.append(_group(module, inst, compiler, canon or SourceMap()))
    return groups


def _group(module: HloModule, fusion: Instruction, compiler: str, canon: SourceMap) -> FusionGroup:
    body = [i for i in _fused_instructions(module, fusion) if i.opcode != "parameter"]
    sources = frozenset(canon(source_of(i)) for i in body)
    heavy = frozenset(canon(source_of(i)) for i in body if i.opcode not in CHEAP)
    return FusionGroup(compiler, fusion.name, _kind(fusion), tuple(i.name for i in body),
                       tuple(i.opcode for i in body), sources, heavy)


def _fused_instructions(module: HloModule, fusion: Instruction) -> list[Instruction]:
    """The instructions of a fusion's computation, nested fusions opened."""
    found = []
    for name in fusion.called_computations():
        for inst in module.computation(name):
            found += _fused_instructions(module, inst) if inst.opcode == "fusion" else [inst]
    return found


def _kind(fusion: Instruction) -> str:
    """kLoop -> loop; XLA:CPU's library fusions (kCustom, e.g. YNNPACK's dot) -> custom."""
    return str(fusion.attr("kind") or "").removeprefix("k").lower() or "loop"


def sources_by_instruction(module: HloModule, canon: SourceMap | None = None) -> dict[str, Source]:
    """{instruction name: source} over every computation of `module`."""
    canon = canon or SourceMap()
    return {i.name: canon(source_of(i)) for _, i in module.all_instructions()}
