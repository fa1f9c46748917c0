"""add-dependency-remover: ordering tokens dropped where nothing but the order reads them.

`add-dependency(x, token)` is `x`, ordered after whatever made the token; `after-all(...)` joins
tokens. Both compute nothing: XLA's CPU emitter gives `add-dependency` its operand's buffer and
emits nothing for `after-all`. Here the code generators keep no token values at all, so before
code generation each `add-dependency` is replaced by its operand (its users read `x`), and each
`after-all` that then only fed those, or nothing, is dropped. A token another op still needs
(an outfeed, a send) stays, and is refused by name where no emitter takes it.
"""

from __future__ import annotations

from ..ir.computation import Computation
from ..ir.module import HloModule
from .naming import NameUniquer
from .pipeline import HloPass
from .record import DecisionLog
from .rewrite import Rewriter, map_computations, opcodes_in


class AddDependencyRemover(HloPass):
    """Replaces add-dependency by its operand and drops the after-alls only ordering fed."""

    name = "add-dependency-remover"

    def run(self, module: HloModule, log: DecisionLog) -> HloModule:
        names = NameUniquer.for_module(module)
        return map_computations(module, lambda c: self._remove(c, names, log))

    @staticmethod
    def _remove(comp: Computation, names: NameUniquer, log: DecisionLog) -> Computation:
        if "add-dependency" not in opcodes_in(comp) and "after-all" not in opcodes_in(comp):
            return comp
        droppable = _only_ordering(comp)
        rw = Rewriter(comp, names)
        for inst in rw.sweep():
            if inst.opcode == "add-dependency":
                log.add("removed", inst.name, "add-dependency only orders its operand: its users read it directly",
                        target=inst.operands[0], computation=comp.name)
                rw.replace(inst, inst.operands[0])
            elif inst.name in droppable:
                log.add("removed", inst.name, "after-all made a token that only ordering read", computation=comp.name)
                rw.drop(inst)
            else:
                rw.keep(inst)
        return rw.finish()


def _only_ordering(comp: Computation) -> set[str]:
    """after-alls whose every user is an add-dependency taking it as the token, or another
    such after-all (and that are neither the root nor a control predecessor)."""
    controlling = {p for i in comp.instructions for p in i.control_predecessors}
    droppable: set[str] = set()
    for inst in reversed(comp.post_order()):  # users before the tokens they read
        if inst.opcode != "after-all" or inst.name == comp.root or inst.name in controlling:
            continue
        users = [comp[u] for u in comp.users(inst.name)]
        if all((u.opcode == "add-dependency" and u.operands[0] != inst.name) or u.name in droppable for u in users):
            droppable.add(inst.name)
    return droppable
