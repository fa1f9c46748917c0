"""The outer graph a fusion pass edits, and how it is written back as a computation.

Modules are immutable, so a fusion pass copies one computation into this small mutable
graph, makes all its decisions there, and writes the result out once (`emit`): one sweep per
computation, however many fusions it makes. A node is a plain `Instruction` or a `Group` (a
fusion being built), keyed by a stable name: a group keeps its first consumer's name as its
key until `emit` gives the fusion instruction its XLA-style name (`broadcast_add_fusion`)
and renames every operand that pointed at the key. `users` is kept up to date as producers
move into fusions; the pseudo-user `ROOT` marks the computation's result.
"""

from __future__ import annotations

from ...ir.computation import Computation
from ...ir.instruction import Instruction
from ...ir.module import HloModule
from ...ir.shape import Shape
from .builder import Group, NameUniquer
from .rules import loop_fusible

ROOT = "<output>"  # the computation's result: a user that never moves


def fusible_computations(module: HloModule) -> list[Computation]:
    """Computations fusion works on: not fused computations, and not the scalar reducers or
    comparators that reduce, sort, scatter and map call (XLA's GetFusibleComputations)."""
    skip: set[str] = set()
    for comp in module.computations:
        for inst in comp:
            if inst.opcode not in ("call", "while", "conditional"):
                skip.update(inst.called_computations())
    return [c for c in module.computations if c.name not in skip]


class FusionGraph:
    """One computation, open for fusion."""

    def __init__(self, module: HloModule, comp: Computation, names: NameUniquer,
                 comp_names: NameUniquer):
        self.module, self.comp, self.names, self.comp_names = module, comp, names, comp_names
        order = comp.post_order()
        self.nodes: dict[str, Instruction | Group] = {i.name: self._open(i) for i in order}
        self.position = {i.name: n for n, i in enumerate(order)}
        self.users = {i.name: set(comp.users(i.name)) for i in order}
        self.users[comp.root].add(ROOT)
        self.root = comp.root
        self.control = {p for i in order for p in i.control_predecessors}
        self.alias: dict[str, str] = {}
        self.created: dict[int, Group] = {}  # groups made here, by identity, in order
        self.dropped: set[str] = set()  # fused computations of input fusions that were rebuilt
        self.level: dict[str, int] | None = None  # see levels(); only multi-output fusion asks
        self.reordered = False  # multi-output fusion moved things: re-sort on emit

    def _open(self, inst: Instruction) -> Instruction | Group:
        if inst.opcode != "fusion" or not self.module.has_computation(inst.attr("calls")):
            return inst
        comp = self.module.computation(inst.attr("calls"))
        group = Group.opened(inst, comp)
        if group is None or any(n in self.comp for n in group.body):
            return inst
        group.foreign = not all(loop_fusible(i.opcode) or i.opcode == "reduce" for i in group.body.values())
        return group

    # ---- questions ----
    def shape(self, key: str) -> Shape:
        return self.nodes[key].shape

    def operands(self, key: str) -> list[str]:
        node = self.nodes[key]
        return list(node.reads) if isinstance(node, Group) else list(dict.fromkeys(node.operands))

    def has_control_users(self, key: str) -> bool:
        return key in self.control

    def size(self, key: str) -> int:
        node = self.nodes[key]
        return len(node.body) if isinstance(node, Group) else 1

    def after_fusing(self, producer: str, consumer: str) -> tuple[int, int]:
        """(operand count, instruction count) of the consumer's fusion once `producer` is in."""
        operands = (set(self.operands(consumer)) - {producer}) | set(self.operands(producer))
        return len(operands), self.size(consumer) + self.size(producer)

    def operands_latest_first(self, key: str) -> list[str]:
        """XLA tries the operand closest to the consumer first (reverse post order), so a
        shared producer is tried only after the consumer has absorbed its other users."""
        return sorted(self.operands(key), key=lambda o: -self.position[o])

    def reaches(self, src: str, dst: str) -> bool:
        """Whether a path of users leads from `src` to `dst`. Only nodes of a lower level than
        `dst` can lie on such a path (a level is larger than every operand's), so the search
        stops there."""
        level = self.levels()
        limit, todo, seen = level[dst], [src], {src}
        while todo:
            for user in self.users[todo.pop()]:
                if user == dst:
                    return True
                if user != ROOT and user not in seen and level[user] < limit:
                    seen.add(user)
                    todo.append(user)
        return False

    def levels(self) -> dict[str, int]:
        """Each node's level: 0 for leaves, else one more than its highest operand. Computed
        once, then raised locally as multi-output fusion adds edges (`_relevel`)."""
        if self.level is None:
            self.level = {}
            for key in self.key_order() if self.reordered else self.nodes:
                self.level[key] = 1 + max((self.level[o] for o in self._deps(key)), default=-1)
        return self.level

    def _relevel(self, start: str) -> None:
        """Restore "a level exceeds its operands' levels" from `start` forwards."""
        if self.level is None:
            return
        self.level[start] = 1 + max((self.level[o] for o in self._deps(start)), default=-1)
        todo = [start]
        while todo:
            key = todo.pop()
            for user in self.users.get(key, ()):
                if user != ROOT and self.level.get(user, -1) <= self.level[key]:
                    self.level[user] = self.level[key] + 1
                    todo.append(user)

    def key_order(self) -> list[str]:
        """Every key after its operands (a depth-first post order that keeps the given order
        wherever it is already valid)."""
        order: list[str] = []
        seen: set[str] = set()
        for start in self.nodes:
            if start in seen:
                continue
            seen.add(start)
            stack = [(start, iter(self._deps(start)))]
            while stack:
                key, deps = stack[-1]
                for dep in deps:
                    if dep not in seen:
                        seen.add(dep)
                        stack.append((dep, iter(self._deps(dep))))
                        break
                else:
                    stack.pop()
                    order.append(key)
        return order

    def _deps(self, key: str) -> list[str]:
        node = self.nodes[key]
        extra = [] if isinstance(node, Group) else list(node.control_predecessors)
        return self.operands(key) + extra

    # ---- fusing ----
    def fuse(self, producer: str, consumer: str, kind: str, duplicate: bool) -> Group:
        """Fuse `producer` into `consumer` (which becomes a fusion if it is not one yet)."""
        name = f"{self.nodes[producer].opcode}_{self.nodes[consumer].opcode}_fusion"  # as XLA names it
        group = self.group_of(consumer, name, kind)
        node = self.nodes[producer]
        if isinstance(node, Group):
            self._drop_source(node)
            group.merge(node)
            self._forget(producer, consumer, node.reads)
            self.created.pop(id(node), None)
        elif duplicate:
            group.absorb(node, rename=self.names.keep_or_rename(producer))
            self.users[producer].discard(consumer)
            for o in node.operands:
                self.users[o].add(consumer)
        else:
            group.absorb(node)
            self._forget(producer, consumer, node.operands)
        group.kind = next(k for k in ("kOutput", "kInput", "kLoop") if k in (kind, group.kind, "kLoop"))
        return group

    def group_of(self, key: str, name: str, kind: str) -> Group:
        """The node `key` as a group: itself if it is one, else a new fusion named `name`."""
        node = self.nodes[key]
        if isinstance(node, Group):
            self._drop_source(node)
            return node
        group = Group.of(node, self.names.keep_or_rename(name), kind)
        self.nodes[key] = group
        self.created[id(group)] = group
        return group

    def _as_group(self, key: str, kind: str) -> Group:
        node = self.nodes[key]
        return node if isinstance(node, Group) else Group.of(node, key, kind)

    def _drop_source(self, group: Group) -> None:
        if group.source is not None:
            self.dropped.add(group.source[1].name)

    def _forget(self, producer: str, consumer: str, operands) -> None:
        del self.nodes[producer]
        self.users.pop(producer)
        for o in set(operands):
            self.users[o].discard(producer)
            self.users[o].add(consumer)

    def combine(self, keys: list[str], name: str, kind: str) -> str:
        """Multi-output fusion: one fusion computing the outputs of every key in turn (siblings,
        or a consumer followed by a producer it reads). Their users read them through
        get-tuple-element; returns the new fusion's key."""
        parts = [self._as_group(k, kind) for k in keys]
        merged = Group(name, name, kind, {}, [], metadata=parts[0].metadata)
        for part in parts:
            self._drop_source(part)
            merged.merge(part)
            merged.outputs += part.outputs
            self.created.pop(id(part), None)
        self.nodes[name], self.users[name] = merged, set()
        offset = 0
        for key, part in zip(keys, parts):
            self._read_through_tuple(key, part, name, offset)
            offset += len(part.outputs)
        for o in [*merged.reads, *keys]:
            self.users.get(o, set()).difference_update(keys)
            if o in merged.reads:
                self.users[o].add(name)
        self.created[id(merged)] = merged
        self.position[name] = max(self.position[k] for k in keys)
        self.reordered = True
        self._relevel(name)
        return name

    def _read_through_tuple(self, key: str, part: Group, fusion: str, offset: int) -> None:
        """Users of `key` now read element(s) of `fusion` from `offset` on."""
        if len(part.outputs) == 1:
            gte = Instruction(self.names.next("get-tuple-element"), "get-tuple-element", part.shape,
                              (fusion,), {"index": offset})
            self.nodes[key] = gte
            self.users[fusion].add(key)
            return
        del self.nodes[key]
        for user in self.users.pop(key):  # already get-tuple-elements of a multi-output fusion
            gte = self.nodes[user]
            if not isinstance(gte, Instruction):
                raise TypeError(f"{user} reads the multi-output fusion {key} but is not a get-tuple-element")
            index = gte.attr("index") + offset
            self.nodes[user] = gte.replace(operands=(fusion,), attrs={**gte.attrs, "index": index})
            self.users[fusion].add(user)

    # ---- writing back ----
    def emit(self) -> tuple[Computation, list[Computation]]:
        """The new computation and the fused computations it calls (new ones only)."""
        opened = [n for n in self.nodes.values() if isinstance(n, Group) and id(n) not in self.created]
        fused, made = [], {}
        for group in [*self.created.values(), *opened]:
            comp, outside = group.materialize(self.names, self.comp_names, self.shape)
            if group.source is None:
                fused.append(comp)
            attrs = {**group.attrs, "kind": group.kind, "calls": comp.name}
            made[group.key] = Instruction(group.name, "fusion", group.shape, tuple(outside), attrs,
                                          group.metadata)
        keys = self.key_order() if self.reordered else list(self.nodes)
        insts = [made.get(key) or self.nodes[key] for key in keys]
        for key, inst in zip(keys, insts):
            if inst.name != key:
                self.alias[key] = inst.name
        rename = self.alias.get
        insts = [i.replace(operands=tuple(rename(o, o) for o in i.operands))
                 if any(o in self.alias for o in i.operands) else i for i in insts]
        return self.comp.replace(insts, root=rename(self.root, self.root)), fused


def rebuild_module(module: HloModule, comps: dict[str, Computation], fused: dict[str, list[Computation]],
                   dropped: set[str]) -> HloModule:
    """The module with rewritten computations, new fused computations placed before their
    caller, and input fused computations that were rebuilt (and are no longer called) removed."""
    out: list[Computation] = []
    for comp in module.computations:
        out.extend(fused.get(comp.name, ()))
        out.append(comps.get(comp.name, comp))
    called = {c for comp in out for i in comp for c in i.called_computations()}
    return module.replace(computations=tuple(c for c in out if c.name not in dropped or c.name in called))
