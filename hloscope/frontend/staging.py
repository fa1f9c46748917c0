"""Staging a Python function into a frame: parameters in, traced outputs out.

Shared by `jit` (the ENTRY computation) and the control-flow functions (branches and loop
bodies, which are traced as computations of their own). Also here: turning a frame whose
leaves are separate parameters into one taking a single tuple parameter, which is what
XLA's `while` and `conditional` call.
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.shape import TupleShape
from .abstract import ShapedArray, python_scalar
from .pytree import TreeDef, flatten
from .rules.common import as_tracer, with_weak
from .trace import Frame
from .tracer import Tracer


def as_output(x, where: str = "output") -> Tracer:
    """A function result as a tracer of the current frame (numbers and arrays become constants)."""
    if isinstance(x, Tracer):
        return x
    if python_scalar(x):
        return with_weak(as_tracer(x), True)
    if isinstance(x, (np.ndarray, np.generic)):
        return as_tracer(x)
    raise TypeError(f"{where} is a {type(x).__name__}, not an array; a traced function may return "
                    "arrays, numbers, and tuples, lists or dicts of them")


def stage(frame: Frame, fn: Callable, avals: Sequence[ShapedArray], names: Sequence[str],
          build_args: Callable[[list[Tracer]], Sequence[Any]]) -> tuple[list[Tracer], TreeDef]:
    """Call `fn` on new parameters of `frame` (one per aval); its flattened outputs and tree.

    `build_args(params)` turns the parameter tracers into fn's positional arguments.
    """
    params = [frame.parameter(a, n) for a, n in zip(avals, names)]
    frame.params = params
    with frame.active():
        out = fn(*build_args(params))
        leaves, tree = flatten(out)
        outs = [as_output(x, f"output {i} of {getattr(fn, '__name__', 'the function')}")
                for i, x in enumerate(leaves)]
    return outs, tree


def tuple_parameter(frame: Frame, comp: Computation, index_of: Sequence[int],
                    shapes: Sequence) -> Computation:
    """`comp` rewritten to take one tuple parameter of `shapes`: parameter p becomes
    `get-tuple-element(arg_tuple, index=index_of[p])`, keeping its name so no operand changes."""
    mb = frame.lowering.mb
    tuple_name = mb.names.fresh("arg_tuple")
    first = comp.instructions[0] if comp.instructions else None
    arg = Instruction(tuple_name, "parameter", TupleShape(tuple(shapes)), (), {},
                      first.metadata if first else None, parameter_number=0)
    slot = {p.name: index_of[number] for number, p in enumerate(comp.parameters)}
    body = [
        Instruction(i.name, "get-tuple-element", i.shape, (tuple_name,), {"index": slot[i.name]},
                    i.metadata) if i.opcode == "parameter" else i
        for i in comp.instructions
    ]
    new = Computation(comp.name, (arg, *body), comp.root)
    mb.computations[comp.name] = new  # replaces the flat version the builder registered
    return new


def capture_union(frames: Sequence[Frame]) -> list[Tracer]:
    """The enclosing values captured by any of `frames`, each once, in first-capture order."""
    seen: dict = {}
    for f in frames:
        for key, (outer, _) in f.captures.items():
            seen.setdefault(key, outer)
    return list(seen.values())


def close_with_tuple(frame: Frame, outs: list[Tracer], carried: list[Tracer],
                     captures: list[Tracer], tuple_root: bool = False) -> Computation:
    """Finish `frame` (ROOT from `outs`) as a computation of one tuple parameter holding
    the carried leaves followed by every value in `captures`."""
    comp = frame.finish(outs, tuple_root)
    n = len(carried)
    slot = {c.key: n + i for i, c in enumerate(captures)}
    index_of = list(range(n)) + [slot[key] for key in frame.captures]
    shapes = [c.aval.hlo_shape() for c in carried] + [c.aval.hlo_shape() for c in captures]
    return tuple_parameter(frame, comp, index_of, shapes)
