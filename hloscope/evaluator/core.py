"""The evaluator's walk: run a computation's instructions in post order with numpy.

Values are numpy arrays (exactly the HLO shape's dtype and dims) or tuples of values. Every
value is treated as immutable: handlers build new arrays and never write into an operand, so
an array may be shared (a parameter, a `copy`, a broadcast view) without harm.

Like XLA's HloEvaluator, the walk keeps one value per instruction in an environment (XLA's
`evaluated_` map) and dispatches each opcode to a handler from one table (`table.HANDLERS`).
A handler is `handler(ev, inst, operand_values) -> value`; it may call back into the
evaluator (`ev.call`) to run the computations an instruction names (fusion, while, reduce).

"Lifted" mode runs a computation whose instructions are all scalars on arrays instead: the
same elementwise handlers broadcast over whole arrays, so a reducer or comparator applied to
every output element costs one vectorized pass instead of one Python call per element.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Sequence

import numpy as np

from ..errors import EvaluationError, HloVerifierError, NotSupportedError
from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import HloModule
from ..ir.shape import ArrayShape, Shape, TupleShape
from ..ir.memo import per_value
from .table import HANDLERS

if TYPE_CHECKING:
    from .mesh import Device

# Scalar-to-scalar data movement is the identity; in lifted mode it must not reshape arrays.
_SCALAR_IDENTITY = frozenset({"broadcast", "reshape", "bitcast", "copy", "opt-barrier"})


MAX_ELEMENTS = 1 << 31  # one result past this is refused before it is allocated


def _check_size(inst: Instruction) -> None:
    shape = inst.shape
    for leaf in shape.leaves() if isinstance(shape, TupleShape) else [shape]:
        if isinstance(leaf, ArrayShape) and leaf.size > MAX_ELEMENTS:
            raise EvaluationError(f"{inst.opcode} {inst.name} gives {leaf.short()}: {leaf.size} elements, over "
                                  f"the evaluator's limit of {MAX_ELEMENTS}")


def _same_bits(inst: Instruction, value):
    """A scalar bitcast may change the element type (XLA's algsimp turns a bitcast-convert of
    f32 to s32 into a bitcast): the same bits read as the result's type."""
    shape = inst.shape
    if not isinstance(shape, ArrayShape) or np.asarray(value).dtype == shape.numpy_dtype:
        return value
    return np.asarray(value).view(shape.numpy_dtype)


@per_value
def _schedule(comp: Computation) -> tuple[Instruction, ...]:
    """The computation's post order, computed once (while bodies run it many times)."""
    return tuple(comp.post_order())


def _operands(env: dict, comp: Computation, inst: Instruction) -> list:
    """The operands' values. One missing means the module was never verified: a cycle or an
    undefined name (module.verify() explains which), so say that rather than a KeyError."""
    try:
        return [env[o] for o in inst.operands]
    except KeyError as e:
        raise HloVerifierError(
            f"operand {e.args[0]} has no value when {inst.name} runs: the computation has a cycle "
            "or an undefined operand (module.verify() says which)", comp.name, inst.name
        ) from None


class Evaluator:
    """Runs computations of one module. `run` evaluates a computation on given values."""

    def __init__(self, module: HloModule | None, device: Device | None = None):
        self.module = module
        self.device = device  # one of several simulated devices (mesh.py), or None: the only one
        self._frames: list[tuple[Computation, bool]] = []  # (computation, lifted) being run

    def computation(self, name: str) -> Computation:
        if self.module is None:
            raise EvaluationError(f"no module to look up computation {name!r} in")
        return self.module.computation(name)

    def call(self, name: str, args: Sequence):
        """Run the computation called `name` on `args`, in the mode of the calling computation
        (a `call` inside a lifted computation is lifted too)."""
        lifted = bool(self._frames) and self._frames[-1][1]
        return self.run(self.computation(name), args, lifted)

    def run(self, comp: Computation, args: Sequence, lifted: bool = False):
        """Evaluate `comp` with parameter i bound to args[i]; returns the ROOT's value."""
        env: dict[str, object] = {}
        self._frames.append((comp, lifted))
        try:
            for inst in _schedule(comp):
                if inst.opcode == "parameter":
                    env[inst.name] = args[_parameter_number(inst)]
                else:
                    env[inst.name] = self.instruction(inst, _operands(env, comp, inst), lifted)
        finally:
            self._frames.pop()
        return env[comp.root]

    def instruction(self, inst: Instruction, operands: list, lifted: bool = False):
        """The value of one instruction given its operands' values."""
        try:
            if lifted and inst.opcode in _SCALAR_IDENTITY:
                return _same_bits(inst, operands[0]) if inst.opcode == "bitcast" else operands[0]
            _check_size(inst)
            handler = HANDLERS.get(inst.opcode)
            if handler is None:
                raise NotSupportedError(f"not supported: {inst.opcode} (instruction {inst.name})")
            value = _normalize(handler(self, inst, operands))
        except Exception as e:
            where = f" in {self._frames[-1][0].name}" if self._frames else ""
            _add_note(e, f"while evaluating {inst.name} ({inst.opcode}){where}")
            raise
        _check_result(inst, inst.shape, value, lifted)
        return value

    def operand_shape(self, inst: Instruction, i: int) -> Shape | None:
        """The declared shape of operand i (None when evaluating a lone instruction)."""
        comp = self._frames[-1][0] if self._frames else None
        if comp is None or inst.operands[i] not in comp:
            return None
        return comp[inst.operands[i]].shape


def _parameter_number(inst: Instruction) -> int:
    """A parameter's number; one without a number was never verified, so say so."""
    if inst.parameter_number is None:
        raise HloVerifierError(f"parameter {inst.name} has no number (module.verify() reports it)",
                               instruction=inst.name)
    return inst.parameter_number


def _add_note(error: BaseException, note: str) -> None:
    """`error.add_note(note)`, which Python 3.10 lacks: there the note goes where 3.11 keeps it."""
    if sys.version_info >= (3, 11):
        error.add_note(note)
    else:
        setattr(error, "__notes__", [*getattr(error, "__notes__", ()), note])


def _normalize(value):
    """Numpy ufuncs return numpy scalars for 0-d inputs; the evaluator keeps 0-d arrays."""
    if isinstance(value, tuple):
        return tuple(_normalize(v) for v in value)
    return value if isinstance(value, np.ndarray) else np.asarray(value)


def _check_result(inst: Instruction, shape: Shape, value, lifted: bool) -> None:
    """A handler must produce exactly the instruction's shape; anything else is a bug here."""
    if isinstance(shape, TupleShape):
        if not isinstance(value, tuple) or len(value) != len(shape.elements):
            raise _internal(inst, value)
        for s, v in zip(shape.elements, value):
            _check_result(inst, s, v, lifted)
    elif isinstance(shape, ArrayShape):
        if not isinstance(value, np.ndarray) or value.dtype != shape.numpy_dtype:
            raise _internal(inst, value)
        if not lifted and value.shape != shape.dims:
            raise _internal(inst, value)


def _internal(inst: Instruction, value) -> EvaluationError:
    got = (
        f"{value.dtype}{list(value.shape)}" if isinstance(value, np.ndarray) else type(value).__name__
    )
    return EvaluationError(
        f"internal error: {inst.name} ({inst.opcode}) evaluated to {got}, but its shape is {inst.shape}"
    )
