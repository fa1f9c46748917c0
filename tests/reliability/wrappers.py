"""A generated module's ENTRY wrapped in control flow, so that its kernels run from called
computations: as both branches of a conditional, or as the body of a while loop whose state
carries the parameters and the result (tuples of loop state, get-tuple-elements, the state's
copies between iterations)."""

from __future__ import annotations

import numpy as np

import hloscope
from hloscope.ir.attributes import Literal
from hloscope.ir.computation import Computation
from hloscope.ir.instruction import Instruction
from hloscope.ir.shape import ArrayShape, Shape, TupleShape


def _scalar(shape: ArrayShape, value: int) -> Literal:
    return Literal(np.array(value, shape.numpy_dtype))


def _params(module: hloscope.HloModule) -> list[Instruction]:
    return sorted(module.entry_computation.parameters, key=lambda p: p.parameter_number)


def _entry_body(module: hloscope.HloModule, packed: str) -> list[Instruction]:
    """The ENTRY's instructions, its parameters read from the tuple `packed`."""
    body = []
    for inst in module.entry_computation.instructions:
        if inst.opcode == "parameter":
            inst = Instruction(inst.name, "get-tuple-element", inst.shape, (packed,), {"index": inst.parameter_number})
        body.append(inst)
    return body


def inside_a_conditional(module: hloscope.HloModule) -> hloscope.HloModule:
    """The module's ENTRY as both branches of a conditional on a new trailing pred
    parameter: the branch gets the parameters as one tuple, so every kernel of it runs
    from a called computation, with its own buffers relocated into the caller's."""
    entry, params = module.entry_computation, _params(module)
    packed = TupleShape(tuple(p.shape for p in params))

    def branch(name: str) -> Computation:
        arg = Instruction("branch.arg", "parameter", packed, parameter_number=0)
        return Computation(name, (arg, *_entry_body(module, "branch.arg")), entry.root)

    pred = Instruction("which", "parameter", ArrayShape("pred", ()), parameter_number=len(params))
    args = Instruction("args", "tuple", packed, tuple(p.name for p in params))
    result = Instruction("result", "conditional", entry.root_instruction.shape, ("which", "args", "args"),
                         {"true_computation": "on_true", "false_computation": "on_false"})
    outer = Computation(entry.name, (*params, pred, args, result), "result")
    others = tuple(c for c in module.computations if c.name != entry.name)
    return module.replace(computations=(*others, branch("on_true"), branch("on_false"), outer)).verify()


def _leaves(shape: Shape, path: tuple[int, ...] = ()) -> list[tuple[tuple[int, ...], ArrayShape]]:
    if isinstance(shape, TupleShape):
        return [leaf for k, e in enumerate(shape.elements) for leaf in _leaves(e, (*path, k))]
    return [(path, shape)] if isinstance(shape, ArrayShape) else []


def _element(out: list[Instruction], source: str, shape: Shape, path: tuple[int, ...], name: str) -> str:
    """get-tuple-elements down `path` from `source` (appended to `out`); the last one's name."""
    for depth, k in enumerate(path):
        shape = shape.elements[k]  # type: ignore[union-attr]
        out.append(Instruction(f"{name}.{depth}", "get-tuple-element", shape, (source,), {"index": k}))
        source = f"{name}.{depth}"
    return source


def _rebuilt(out: list[Instruction], shape: Shape, names: list[str], name: str) -> str:
    """`shape` rebuilt from its leaves' `names` (consumed in order) with tuple instructions."""
    if not isinstance(shape, TupleShape):
        return names.pop(0)
    parts = [_rebuilt(out, e, names, f"{name}.{k}") for k, e in enumerate(shape.elements)]
    out.append(Instruction(name, "tuple", shape, tuple(parts)))
    return name


def inside_a_loop(module: hloscope.HloModule) -> hloscope.HloModule:
    """The module's ENTRY as the body of a while loop that runs once: the state is (counter,
    the parameters..., the result's arrays...), the result read back out of the final state."""
    entry, params = module.entry_computation, _params(module)
    root_shape = entry.root_instruction.shape
    leaves = _leaves(root_shape)
    counter = ArrayShape("s32", ())
    state = TupleShape((counter, *(p.shape for p in params), *(s for _, s in leaves)))
    n = len(params)

    body = [Instruction("state", "parameter", state, parameter_number=0)]
    body.append(Instruction("count", "get-tuple-element", counter, ("state",), {"index": 0}))
    body.append(Instruction("args", "tuple", TupleShape(tuple(p.shape for p in params)),
                            tuple(f"arg.{k}" for k in range(n))))
    body[2:2] = [Instruction(f"arg.{k}", "get-tuple-element", p.shape, ("state",), {"index": 1 + k})
                 for k, p in enumerate(params)]
    body += _entry_body(module, "args")
    outs = [_element(body, entry.root, root_shape, path, f"out{j}") for j, (path, _) in enumerate(leaves)]
    body += [Instruction("one", "constant", counter, literal=_scalar(counter, 1)),
             Instruction("next", "add", counter, ("count", "one")),
             Instruction("following", "tuple", state, ("next", *(f"arg.{k}" for k in range(n)), *outs))]
    loop_body = Computation("loop_body", tuple(body), "following")

    cond = Computation("loop_cond", (
        Instruction("state", "parameter", state, parameter_number=0),
        Instruction("count", "get-tuple-element", counter, ("state",), {"index": 0}),
        Instruction("once", "constant", counter, literal=_scalar(counter, 1)),
        Instruction("more", "compare", ArrayShape("pred", ()), ("count", "once"), {"direction": "LT"}),
    ), "more")

    outer: list[Instruction] = [*params, Instruction("zero", "constant", counter, literal=_scalar(counter, 0))]
    for j, (_, s) in enumerate(leaves):
        outer.append(Instruction(f"fill{j}.scalar", "constant", ArrayShape(s.dtype, ()),
                                 literal=_scalar(ArrayShape(s.dtype, ()), 0)))
        outer.append(Instruction(f"fill{j}", "broadcast", s, (f"fill{j}.scalar",), {"dimensions": ()}))
    outer.append(Instruction("init", "tuple", state, ("zero", *(p.name for p in params), *(f"fill{j}" for j in range(len(leaves))))))
    outer.append(Instruction("loop", "while", state, ("init",), {"condition": "loop_cond", "body": "loop_body"}))
    finals = [_element(outer, "loop", state, (1 + n + j,), f"final{j}") for j in range(len(leaves))]
    root = _rebuilt(outer, root_shape, finals, "result")
    others = tuple(c for c in module.computations if c.name != entry.name)
    return module.replace(computations=(*others, cond, loop_body, Computation(entry.name, tuple(outer), root))).verify()
