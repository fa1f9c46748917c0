"""A computation: an ordered tuple of instructions and the name of its ROOT.

Users are derived from operands (and cached), so operands and users can never disagree.
The instruction order is kept as written; in a scheduled module it is the schedule.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Iterable, Iterator

from .instruction import Instruction
from .shape import Shape


@dataclass(frozen=True, eq=False)
class Computation:
    """A named list of instructions with one ROOT."""

    name: str
    instructions: tuple[Instruction, ...]
    root: str
    execution_thread: str | None = None

    def __post_init__(self):
        object.__setattr__(self, "instructions", tuple(self.instructions))

    # ---- lookups (cached: a computation never changes) ----
    @cached_property
    def by_name(self) -> dict[str, Instruction]:
        return {inst.name: inst for inst in self.instructions}

    @cached_property
    def _users(self) -> dict[str, tuple[str, ...]]:
        users: dict[str, list[str]] = {inst.name: [] for inst in self.instructions}
        for inst in self.instructions:
            for op in dict.fromkeys(inst.operands):
                users.setdefault(op, []).append(inst.name)
            for pred in inst.control_predecessors:
                users.setdefault(pred, [])
        return {k: tuple(v) for k, v in users.items()}

    def __getitem__(self, name: str) -> Instruction:
        return self.by_name[name]

    def __contains__(self, name: str) -> bool:
        return name in self.by_name

    def __iter__(self) -> Iterator[Instruction]:
        return iter(self.instructions)

    def __len__(self) -> int:
        return len(self.instructions)

    def users(self, name: str) -> tuple[str, ...]:
        """Names of the instructions that use `name` as an operand (each once, in order)."""
        return self._users.get(name, ())

    @property
    def root_instruction(self) -> Instruction:
        return self.by_name[self.root]

    @cached_property
    def parameters(self) -> tuple[Instruction, ...]:
        """Parameter instructions ordered by parameter number."""
        params = [i for i in self.instructions if i.opcode == "parameter"]
        # An unnumbered parameter (the verifier reports it) sorts first instead of failing the sort.
        return tuple(sorted(params, key=lambda i: -1 if i.parameter_number is None else i.parameter_number))

    @property
    def parameter_shapes(self) -> tuple[Shape, ...]:
        return tuple(p.shape for p in self.parameters)

    @property
    def result_shape(self) -> Shape:
        return self.root_instruction.shape

    def operands_of(self, inst: Instruction) -> list[Instruction]:
        return [self.by_name[o] for o in inst.operands]

    def post_order(self) -> list[Instruction]:
        """Instructions with every operand before its users (stable w.r.t. written order)."""
        order: list[Instruction] = []
        state: dict[str, int] = {}
        for start in self.instructions:
            if start.name in state:
                continue
            stack = [(start, start.operands + start.control_predecessors, 0)]
            state[start.name] = 1
            while stack:
                inst, deps, i = stack.pop()
                if i < len(deps):
                    stack.append((inst, deps, i + 1))
                    dep = self.by_name.get(deps[i])
                    if dep is not None and dep.name not in state:
                        state[dep.name] = 1
                        stack.append((dep, dep.operands + dep.control_predecessors, 0))
                else:
                    state[inst.name] = 2
                    order.append(inst)
        return order

    # ---- making new computations ----
    def replace(self, instructions: Iterable[Instruction] | None = None, root: str | None = None,
                name: str | None = None) -> "Computation":
        return Computation(
            name if name is not None else self.name,
            tuple(instructions) if instructions is not None else self.instructions,
            root if root is not None else self.root,
            self.execution_thread,
        )

    def __repr__(self) -> str:
        return f"<Computation {self.name}: {len(self.instructions)} instructions, ROOT {self.root}>"

    def __str__(self) -> str:
        # Imported here, not at the top: the printer imports this module (import cycle).
        from .printer import format_computation

        return format_computation(self)
