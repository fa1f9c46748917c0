"""fusion: merge producers into their consumers so intermediate arrays never reach memory
(XLA's InstructionFusion, xla/service/instruction_fusion.cc, with CpuInstructionFusion's
rules, xla/service/cpu/cpu_instruction_fusion.cc).

Unfused, every op is its own loop that writes its result to memory and the next op reads it
back. A fusion computes a whole chain inside one loop, element by element, so only the
chain's inputs and its result touch memory:

    before                                            after
      %b = f32[8] broadcast(%c), dimensions={}          %fused_computation (param_0: f32[8], param_1: f32[]) -> f32[8] {
      %m = f32[8] multiply(%x, %b)                        %param_0 = f32[8]{0} parameter(0)
      ROOT %a = f32[8] add(%m, %x)                        %param_1 = f32[] parameter(1)
                                                          %b = f32[8]{0} broadcast(%param_1), dimensions={}
                                                          %m = f32[8]{0} multiply(%param_0, %b)
                                                          ROOT %a = f32[8]{0} add(%m, %param_0)
                                                        }
                                                        ROOT %multiply_add_fusion = f32[8]{0} fusion(%x, %c),
                                                            kind=kLoop, calls=%fused_computation

The walk goes from the root towards the parameters (reverse post order). Each consumer
tries its operands, the nearest first; when one fuses, the grown fusion tries again, until
no operand is accepted. The rules (rules.py) decide each pair, and both the yes and
the no are logged with the rule's reason. Kinds: kLoop (elementwise and data movement),
kInput (a reduce is the root, its "hero"; XLA:CPU prints kLoop there, XLA:GPU kInput) and
kOutput (XLA:CPU's matrix-vector dot + bias add). Library calls (dot, convolution),
control flow and custom calls stay unfused.

A fusion with one output cannot create a cycle: a producer with other users is either
duplicated (the others keep the original) or left alone. Cycles matter for
multi-output fusion, which checks them (multi_output.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...ir.module import HloModule
from ..pipeline import HloPass
from ..record import DecisionLog
from .builder import NameUniquer
from .graph import FusionGraph, fusible_computations, rebuild_module
from .rules import should_fuse

# Rejections that stay true however the consumer's fusion grows (the others are asked again:
# a shared producer may lose its other users to this very fusion, a lone constant may join).
FINAL = frozenset({
    "parameter", "consumer_not_fusible", "output_fusion_final", "producer_not_fusible", "reduce_producer",
    "large_constant", "big_concatenate", "control_dependency", "saved_for_output_fusion", "major_reduce",
    "recompute", "too_large",
})
_KIND_WORDS = {"kLoop": "loop", "kInput": "input (reduce hero)", "kOutput": "output"}


@dataclass
class InstructionFusion(HloPass):
    """Fusion: merge producers into consumers so intermediates stay in registers.

    Walks each computation from the root to the parameters; each consumer absorbs its
    producers one at a time, nearest first. A producer is fused when it can be computed
    inside the consumer's loop (elementwise ops and cheap data movement), and duplicated
    when it has other users and is cheap (a broadcast of a scalar, an add). It is kept
    unfused when it is expensive and shared (an exponential with two users would be computed
    twice), when it is a reduce (a reduce is only a fusion's root, its hero), a dot or
    control flow (library calls stay unfused), or when limits on operands and size are hit.
    Every accepted and rejected pair is logged with its reason.
    """

    name = "fusion"
    may_duplicate: bool = True  # XLA:CPU creates its fusion pass with may_duplicate=true
    output_fusion: bool = True  # fuse a matrix-vector dot into its bias add (kOutput)
    max_operands: int = 20  # buffers one fused loop may read (XLA:CPU kMaxOperands)
    max_instructions: int = 128  # a stand-in for XLA's code-duplication limits
    max_concatenate_operands: int = 8  # XLA:CPU leaves wider concatenates unfused
    fuse_major_reductions: bool = False  # XLA:GPU fuses into column reductions (coalesced there)
    duplicate_expensive: bool = False  # a what-if: copy an expensive shared producer into each consumer
    disabled_rules: tuple[str, ...] = ()  # heuristic rejections to ignore (rules.HEURISTIC_RULES)

    def run(self, module: HloModule, log: DecisionLog) -> HloModule:
        names = NameUniquer.for_module(module)
        comp_names = NameUniquer(c.name for c in module.computations)
        comps, fused, dropped = {}, {}, set()
        for comp in fusible_computations(module):
            graph = FusionGraph(module, comp, names, comp_names)
            for key in reversed(list(graph.nodes)):
                if key in graph.nodes:
                    self._grow(graph, key, log)
            if graph.created or graph.dropped:
                comps[comp.name], fused[comp.name] = graph.emit()
                dropped |= graph.dropped
                self._summarize(graph, fused[comp.name], log)
        return rebuild_module(module, comps, fused, dropped) if comps else module

    def _grow(self, graph: FusionGraph, consumer: str, log: DecisionLog) -> None:
        """Fuse operands into `consumer` until none is accepted; log every pair once."""
        rejected = {}
        while True:
            for producer in graph.operands_latest_first(consumer):
                if rejected.get(producer) and rejected[producer].rule in FINAL:
                    continue  # growing the fusion cannot change this answer
                verdict = should_fuse(graph, producer, consumer, self)
                if verdict.ok:
                    graph.fuse(producer, consumer, verdict.kind, verdict.duplicate)
                    rejected.pop(producer, None)
                    log.add("fused", producer, verdict.reason, target=consumer, rule=verdict.rule,
                            computation=graph.comp.name)
                    break
                rejected[producer] = verdict
            else:
                break
        for producer, verdict in rejected.items():
            log.add("kept", producer, verdict.reason, target=consumer, rule=verdict.rule,
                    computation=graph.comp.name, accepted=False)

    def _summarize(self, graph: FusionGraph, fused: list, log: DecisionLog) -> None:
        """One line per fusion made: its name, kind and what it holds."""
        for group, comp in zip(graph.created.values(), fused):
            held = [i.name for i in comp if i.opcode != "parameter"]
            shown = ", ".join(held[:6]) + (", ..." if len(held) > 6 else "")
            n = len(comp.parameters)
            log.add("created", group.name, f"{_KIND_WORDS[group.kind]} fusion of {len(held)} instructions "
                    f"({shown}) reading {n} operand{'' if n == 1 else 's'}, calls {comp.name}",
                    rule="fusion", computation=graph.comp.name)
