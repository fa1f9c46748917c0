"""call-inliner: replace each `call` by a copy of the computation it calls
(XLA's CallInliner, xla/hlo/transforms/simplifiers/call_inliner.cc).

JAX wraps `jnp.where`, `jnp.argmax`, `jax.jit`-inside-`jit` and friends in `call`s to small
computations. Later passes work inside one computation at a time, so the call is a wall:
algsimp cannot see through it and fusion cannot fuse across it. Inlining copies the callee's
instructions into the caller under fresh names, wires the callee's parameters to the call's
operands, and lets the callee's ROOT stand for the call. Callees are inlined first, so
nested calls flatten in one run; a computation that nobody calls any more is removed.

    before                                     after
      %double (a: f32[4]) -> f32[4] {            ENTRY %main (p: f32[4]) -> f32[4] {
        %a = f32[4] parameter(0)                   %p = f32[4] parameter(0)
        ROOT %s = f32[4] add(%a, %a)               ROOT %s.1 = f32[4] add(%p, %p)
      }                                          }
      ENTRY %main (p: f32[4]) -> f32[4] {
        %p = f32[4] parameter(0)
        ROOT %c = f32[4] call(%p), to_apply=%double
      }
"""

from __future__ import annotations

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import HloModule
from ..ir.printer import callee_order
from .dce import called_names
from .naming import NameUniquer, base_name
from .pipeline import HloPass
from .record import DecisionLog
from .rewrite import Rewriter, opcodes_in, operands_first

_PREDS = "control-predecessors"


def inlinable(inst: Instruction, callee: Computation) -> bool:
    """A plain `call` of a computation on the main thread (not fusion, not async)."""
    return inst.opcode == "call" and callee.execution_thread is None


def inline_into(rw: Rewriter, call: Instruction, callee: Computation) -> str:
    """Copy `callee`'s body into the computation `rw` builds; return the name of its ROOT copy."""
    mapping = {p.name: operand for p, operand in zip(callee.parameters, call.operands, strict=True)}
    for inst in operands_first(callee):
        if inst.opcode == "parameter":
            continue
        name = rw.names.next(base_name(inst.name))
        copy = inst.replace(name=name, operands=tuple(mapping[o] for o in inst.operands))
        if _PREDS in inst.attrs:
            copy = copy.with_attrs(control__predecessors=tuple(mapping[p] for p in inst.control_predecessors))
        rw.keep(copy)
        mapping[inst.name] = name
    return mapping[callee.root]


class CallInliner(HloPass):
    """Inlines every `call`: the called computation's instructions are copied into the
    caller with fresh names, its parameters become the call's operands, and its ROOT
    replaces the call. Fusion, while, conditional and reduce keep their computations.
    Computations left uncalled are removed."""

    name = "call-inliner"

    def run(self, module: HloModule, log: DecisionLog) -> HloModule:
        if not any("call" in opcodes_in(c) for c in module.computations):
            return module
        names = NameUniquer.for_module(module)
        done: dict[str, Computation] = {}
        callees: set[str] = set()
        for comp in callee_order(module):  # callees first: their own calls are already inlined
            done[comp.name] = self._inline_calls(comp, done, names, callees, log)
        if not callees:
            return module
        inlined = module.replace(computations=tuple(done[c.name] for c in module.computations))
        return self._drop_uncalled(inlined, callees, log)

    def _inline_calls(
        self, comp: Computation, done: dict, names: NameUniquer, callees: set, log: DecisionLog
    ) -> Computation:
        if "call" not in opcodes_in(comp):
            return comp
        rw = Rewriter(comp, names)
        for inst in rw.sweep():
            callee = done.get(inst.attr("to_apply")) if inst.opcode == "call" else None
            if callee is None or not inlinable(inst, callee):
                rw.keep(inst)
                continue
            root = inline_into(rw, inst, callee)
            callees.add(callee.name)
            n = len(callee) - len(callee.parameters)
            log.add(
                "inlined",
                inst.name,
                f"copied {callee.name} ({n} instruction{'s' * (n != 1)}) into "
                f"{comp.name}; {root} now stands for the call",
                target=root,
                rule="inline_call",
                computation=comp.name,
            )
            rw.replace(inst, root)
        return rw.finish()

    @staticmethod
    def _drop_uncalled(module: HloModule, callees: set[str], log: DecisionLog) -> HloModule:
        """Remove the inlined callees that nothing calls any more."""
        reached = called_names(module)
        dropped = {name for name in callees if name not in reached}
        for name in sorted(dropped):
            log.add("removed", name, "every call of it was inlined", rule="inline_call", computation=name)
        return module.replace(computations=tuple(c for c in module.computations if c.name not in dropped))
