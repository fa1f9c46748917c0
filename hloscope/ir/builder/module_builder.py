"""ModuleBuilder: collects computations, hands out module-unique names, makes an HloModule."""

from __future__ import annotations

from ...errors import HloVerifierError
from ..computation import Computation
from ..module import HloModule
from ..shape import ArrayShape
from .computation_builder import CompRef, ComputationBuilder
from .names import NameUniquer


class ModuleBuilder:
    """Collects computations (callees first) and makes an HloModule."""

    def __init__(self, name: str):
        self.name = name
        self.computations: dict[str, Computation] = {}
        self.names = NameUniquer()  # instruction names, unique in the module
        self._comp_names = NameUniquer()
        self._reducers: dict[tuple[str, str], Computation] = {}

    def computation(self, name: str) -> ComputationBuilder:
        """A builder for a new computation (usable as a context manager)."""
        return ComputationBuilder(self, self._comp_names.keep_or_rename(name))

    def add(self, comp: Computation) -> Computation:
        """Register a computation made elsewhere (its names are reserved)."""
        if self.computations.get(comp.name) is comp:
            return comp
        self._comp_names.reserve(comp.name)
        for inst in comp.instructions:
            self.names.reserve(inst.name)
        self.computations[comp.name] = comp
        return comp

    def scalar_reducer(self, opcode: str, dtype: str) -> Computation:
        """`(T, T) -> T` applying a binary op: the to_apply of a sum or max reduction."""
        key = (opcode, dtype)
        if key not in self._reducers:
            cb = self.computation(f"region_{opcode.replace('-', '_')}_{dtype}")
            x, y = cb.parameter(ArrayShape(dtype, ())), cb.parameter(ArrayShape(dtype, ()))
            self._reducers[key] = cb.build(cb.op(opcode, (x, y)))
        return self._reducers[key]

    def ref(self, comp: CompRef) -> str:
        """The name of a computation given by object (registered now if new) or by name."""
        if isinstance(comp, Computation):
            return self.add(comp).name
        if comp not in self.computations:
            raise HloVerifierError(f"computation {comp} does not exist in module {self.name}")
        return comp

    def build(self, entry: CompRef, attrs: dict | None = None, verify: bool = True) -> HloModule:
        """The module, computations ordered callees first and the entry last; verified by default."""
        entry_name = self.ref(entry)
        order: dict[str, Computation] = {}
        for name in [n for n in self.computations if n != entry_name] + [entry_name]:
            self._post_order(name, order)
        module = HloModule(self.name, tuple(order.values()), entry_name, dict(attrs or {}))
        return module.verify() if verify else module

    def _post_order(self, name: str, order: dict, active: frozenset = frozenset()) -> None:
        if name in order or name in active or name not in self.computations:
            return
        comp = self.computations[name]
        for inst in comp.instructions:
            for callee in inst.called_computations():
                self._post_order(callee, order, active | {name})
        order[name] = comp
