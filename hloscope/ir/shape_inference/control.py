"""Shape rules for calls and control flow (call, fusion, while, conditional) and for the ops
whose result is simply what they declare (parameter, constant, custom-call, rng...).

A called computation's parameters must match the operands, ignoring layouts: a fused
computation may see its operands in another layout, as in XLA after layout assignment.
"""

from __future__ import annotations

from ..shape import Shape, TokenShape, TupleShape, scalar
from .common import OpCall, check, check_params, compatible, fmt


def call(op: OpCall) -> Shape:
    """call / fusion: the callee takes the operands and its root is the result."""
    key = "calls" if op.opcode == "fusion" else "to_apply"
    comp = op.computation(key)
    return check_params(
        comp, list(op.operands), "called computation" if key == "to_apply" else "fused computation"
    )


def while_(op: OpCall) -> Shape:
    """condition: (T) -> pred[]; body: (T) -> T; the operand and the result are T."""
    check(
        len(op.operands) == 1, f"while takes one operand (the loop state), got {len(op.operands)}"
    )
    state = op.operands[0]
    cond = op.computation("condition")
    root = check_params(cond, [state], "while condition")
    check(
        compatible(root, scalar("pred")),
        f"while condition {cond.name} returns {fmt(root)}, expected pred[]",
    )
    body = op.computation("body")
    root = check_params(body, [state], "while body")
    check(
        compatible(root, state),
        f"while body {body.name} returns {fmt(root)}, but the loop state is {fmt(state)}",
    )
    return state


def conditional(op: OpCall) -> Shape:
    """Branch i takes operand i + 1; every branch returns the same shape."""
    index = op.array(0, "conditional branch index")
    if "branch_computations" in op.attrs:
        names = tuple(op.attr("branch_computations"))
    else:
        names = (op.attr("true_computation"), op.attr("false_computation"))
    if index.dtype == "pred":
        check(len(names) == 2, f"a pred-indexed conditional needs 2 branches, got {len(names)}")
    else:
        check(
            index.dtype == "s32",
            f"conditional branch index must be pred[] or s32[], got {fmt(index)}",
        )
    check(index.rank == 0, f"conditional branch index must be a scalar, got {fmt(index)}")
    check(
        len(op.operands) == 1 + len(names),
        f"conditional with {len(names)} branches needs {1 + len(names)} operands, got {len(op.operands)}",
    )
    roots = [
        check_params(op.lookup(n), [op.operands[i + 1]], f"branch {i}") for i, n in enumerate(names)
    ]
    for i, root in enumerate(roots[1:], 1):
        check(
            compatible(root, roots[0]),
            f"branch {i} returns {fmt(root)} but branch 0 returns {fmt(roots[0])}",
        )
    return roots[0]


def declared(op: OpCall) -> Shape:
    """parameter, constant, custom-call...: the result is what the instruction says."""
    return op.need_declared()


def rng(op: OpCall) -> Shape:
    """rng(a, b): scalar bounds of the result's element type."""
    out = op.declared_array()
    for s in op.arrays():
        check(
            s.rank == 0 and s.dtype == out.dtype, f"rng bound {fmt(s)} must be a {out.dtype} scalar"
        )
    return out


def rng_bit_generator(op: OpCall) -> Shape:
    """(new state, random bits): the state keeps the operand's shape."""
    out = op.need_declared()
    ok = (
        isinstance(out, TupleShape)
        and len(out.elements) == 2
        and compatible(out.elements[0], op.operands[0])
    )
    check(ok, f"rng-bit-generator must return (state {fmt(op.operands[0])}, bits), not {fmt(out)}")
    return out


def _u32_scalar(op: OpCall) -> Shape:
    return scalar("u32")


def _token(op: OpCall) -> Shape:
    """after-all: a token ordered after all its operands. XLA's verifier takes operands of any
    shape (its parser tests order a token after an f32); only StableHLO asks for tokens."""
    return TokenShape()


def _same_as_operand(op: OpCall) -> Shape:
    """copy and opt-barrier: any shape, tuples included, passes through unchanged."""
    return op.operands[0]


RULES = {
    "call": call,
    "fusion": call,
    "while": while_,
    "conditional": conditional,
    "parameter": declared,
    "constant": declared,
    "custom-call": declared,
    "rng": rng,
    "rng-bit-generator": rng_bit_generator,
    "partition-id": _u32_scalar,
    "replica-id": _u32_scalar,
    "after-all": _token,
    "opt-barrier": _same_as_operand,
    "copy": _same_as_operand,
}
