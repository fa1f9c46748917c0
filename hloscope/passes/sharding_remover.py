"""sharding-remover: the custom-calls that only annotate a sharding, removed (XLA's
ShardingRemover, xla/service/sharding_remover.cc).

JAX marks shardings on values with custom-calls that compute nothing: `Sharding` (GSPMD's
with_sharding_constraint) and, under Shardy, `xla.sdy.FuncResultSharding` on a function's
result. XLA's partitioner reads them and then drops them; a program compiled for one device
has no partitioner, so they are dropped here before code generation, each use taking the
annotated value itself. (`SPMDFullToShardShape` and `SPMDShardToFullShape` change shapes: they
are a shard_map's edges, meaningful only to a partitioner, and stay, to be refused by name.)
"""

from __future__ import annotations

from ..ir.computation import Computation
from ..ir.custom_calls import is_sharding_annotation
from ..ir.module import HloModule
from .naming import NameUniquer
from .pipeline import HloPass
from .record import DecisionLog
from .rewrite import Rewriter, map_computations, opcodes_in

class ShardingRemover(HloPass):
    """Removes custom-calls that only annotate a sharding (Sharding, xla.sdy.FuncResultSharding):
    each use takes the annotated operand."""

    name = "sharding-remover"

    def run(self, module: HloModule, log: DecisionLog) -> HloModule:
        names = NameUniquer.for_module(module)
        return map_computations(module, lambda c: self._remove(c, names, log))

    @staticmethod
    def _remove(comp: Computation, names: NameUniquer, log: DecisionLog) -> Computation:
        if "custom-call" not in opcodes_in(comp) or not any(is_sharding_annotation(i) for i in comp.instructions):
            return comp
        rw = Rewriter(comp, names)
        for inst in rw.sweep():
            if not is_sharding_annotation(inst):
                rw.keep(inst)
                continue
            log.add("removed", inst.name, f"custom-call {inst.attr('custom_call_target')} only annotates a "
                                          "sharding: its uses take its operand", target=inst.operands[0],
                    computation=comp.name)
            rw.replace(inst, inst.operands[0])
        return rw.finish()
