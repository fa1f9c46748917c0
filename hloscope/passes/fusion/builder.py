"""A fusion under construction: the instructions it holds and the outside values it reads.

While a fusion pass works, a fusion is a `Group`: a bag of instructions (the body) whose
operands name either another instruction of the body or a value outside, which becomes a
parameter of the fused computation. Instruction names are unique in the module, so "not in
the body" is all it takes to know that a name is outside. Fusing a producer moves its
instruction into the body (or a renamed copy, when the producer has other users and is
duplicated). Only at the end is each group written out ("materialized") as XLA shows it:

    %fused_computation (param_0: f32[8], param_1: f32[]) -> f32[8] {        <- the body
      %param_0 = f32[8]{0} parameter(0)
      %param_1 = f32[] parameter(1)
      %broadcast.2 = f32[8]{0} broadcast(%param_1), dimensions={}
      ROOT %add.3 = f32[8]{0} add(%param_0, %broadcast.2)
    }
    %broadcast_add_fusion = f32[8]{0} fusion(%x, %c), kind=kLoop, calls=%fused_computation

Parameters are numbered in the order the body first reads them (a post-order walk from the
root), and named `param_N` made unique in the module (NameUniquer.keep_or_rename), as XLA
names them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...ir.attributes import Metadata
from ...ir.builder.names import NameUniquer  # the module's one uniquer (passes.naming's)
from ...ir.computation import Computation
from ...ir.instruction import Instruction
from ...ir.shape import Shape, TupleShape


def _rename_operand(inst: Instruction, old: str, new: str) -> Instruction:
    return inst.replace(operands=tuple(new if o == old else o for o in inst.operands))


@dataclass(eq=False)
class Group:
    """One fusion being built. `key` is its name in the outer graph while the pass runs (the
    original consumer's name); `name` is the fusion instruction's final name."""

    key: str
    name: str
    kind: str
    body: dict[str, Instruction]
    outputs: list[str]
    reads: dict[str, set[str]] = field(default_factory=dict)  # outside value -> inner readers
    inner_users: dict[str, set[str]] = field(default_factory=dict)  # inner value -> inner readers
    metadata: Metadata | None = None
    source: tuple[Instruction, Computation] | None = None  # an input fusion, while unchanged
    attrs: dict = field(default_factory=dict)  # an input fusion's other attributes (backend_config)
    foreign: bool = False  # holds ops a loop cannot compute inline (an input custom fusion)

    @classmethod
    def of(cls, inst: Instruction, name: str, kind: str) -> "Group":
        """A new fusion holding just `inst` (which becomes its root)."""
        group = cls(inst.name, name, kind, {}, [inst.name], metadata=inst.metadata)
        group.absorb(inst)
        return group

    @classmethod
    def opened(cls, inst: Instruction, comp: Computation) -> "Group | None":
        """An existing fusion instruction as a group (None if it cannot be reopened)."""
        params = {p.name: operand for p, operand in zip(comp.parameters, inst.operands, strict=True)}
        root = comp.root_instruction
        outputs = list(root.operands) if root.opcode == "tuple" and len(comp) > 1 else [root.name]
        if any(o in params for o in outputs) or len(set(outputs)) != len(outputs):
            return None
        group = cls(inst.name, inst.name, inst.attr("kind"), {}, outputs, metadata=inst.metadata,
                    attrs=dict(inst.attrs))
        for i in comp.post_order():
            if i.opcode != "parameter" and not (len(outputs) > 1 and i.name == root.name):
                if any(o in params for o in i.operands):  # parameters become the outside values
                    i = i.replace(operands=tuple(params.get(o, o) for o in i.operands))
                group.absorb(i)
        group.source = (inst, comp)
        return group

    # ---- growing ----
    def absorb(self, inst: Instruction, rename: str | None = None) -> None:
        """Move `inst` into the body (as `rename` when it is a duplicate)."""
        name = rename or inst.name
        readers = self.reads.pop(inst.name, set())
        if rename:
            for r in readers:
                self.body[r] = _rename_operand(self.body[r], inst.name, name)
            inst = inst.replace(name=name)
        self.body[name] = inst
        self.inner_users[name] = readers
        for o in dict.fromkeys(inst.operands):
            if o in self.body:  # only when reopening a fused computation, operands first
                self.inner_users[o].add(name)
            else:
                self.reads.setdefault(o, set()).add(name)
        self.source = None

    def merge(self, other: "Group") -> None:
        """Take in a whole producer fusion: its body joins ours, its outside reads become ours."""
        out = other.outputs[0]
        readers = self.reads.pop(other.key, set())
        for r in readers:
            self.body[r] = _rename_operand(self.body[r], other.key, out)
        self.body.update(other.body)
        self.inner_users.update({k: set(v) for k, v in other.inner_users.items()})
        if readers:
            self.inner_users[out] |= readers
        for o, theirs in other.reads.items():
            self.reads.setdefault(o, set()).update(theirs)
        self.source = None

    # ---- questions the rules ask ----
    @property
    def shape(self) -> Shape:
        shapes = [self.body[o].shape for o in self.outputs]
        return shapes[0] if len(shapes) == 1 else TupleShape(tuple(shapes))

    @property
    def root_opcode(self) -> str:
        return self.body[self.outputs[0]].opcode

    @property
    def opcode(self) -> str:
        return "fusion"

    def reuses(self, outside: str, opcodes: frozenset) -> bool:
        """Whether an element of `outside` may be read more than once on its way to the root."""
        todo, seen = list(self.reads.get(outside, ())), set()
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                if self.body[name].opcode in opcodes:
                    return True
                todo.extend(self.inner_users.get(name, ()))
        return False

    # ---- writing it out ----
    def post_order(self) -> tuple[list[Instruction], list[str]]:
        """The body in post order from the outputs, and the outside values in first-read order."""
        order: list[Instruction] = []
        params: dict[str, None] = {}
        seen: set[str] = set()
        for out in self.outputs:
            if out in seen:
                continue
            seen.add(out)
            stack = [(out, 0)]
            while stack:
                name, i = stack.pop()
                ops = self.body[name].operands
                if i == len(ops):
                    order.append(self.body[name])
                    continue
                stack.append((name, i + 1))
                if ops[i] not in self.body:
                    params.setdefault(ops[i])
                elif ops[i] not in seen:
                    seen.add(ops[i])
                    stack.append((ops[i], 0))
        return order, list(params)

    def materialize(self, names: NameUniquer, comp_names: NameUniquer,
                    shape_of) -> tuple[Computation, list[str]]:
        """The fused computation, and the outside values its parameters read, in order."""
        if self.source is not None:
            inst, comp = self.source
            return comp, list(inst.operands)
        order, outside = self.post_order()
        params = [Instruction(names.keep_or_rename(f"param_{n}"), "parameter", shape_of(o), parameter_number=n)
                  for n, o in enumerate(outside)]
        mapping = {o: p.name for o, p in zip(outside, params)}
        body = [i.replace(operands=tuple(mapping.get(o, o) for o in i.operands))
                if any(o in mapping for o in i.operands) else i for i in order]
        root = self.outputs[0]
        if len(self.outputs) > 1:
            root = names.next("tuple")
            body.append(Instruction(root, "tuple", self.shape, tuple(self.outputs)))
        name = comp_names.keep_or_rename("fused_computation")
        return Computation(name, tuple(params + body), root), outside
