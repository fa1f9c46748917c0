"""`loss.backward()`: gradients recorded as one node of the pending graph, computed by
hloscope's autodiff when the step is traced.

backward() finds the leaves that require grad and that the loss depends on through
differentiable operations (not through `no_grad` ones or `detach()`), and records a "grad"
node whose outputs are d(loss)/d(leaf). When the step is traced, the node's replay builds
a function of those leaves that re-applies the loss's subgraph (every node that depends on
a leaf; the rest are the values the step already has) and calls `hloscope.vjp` on it, so
the backward pass is hloscope's own (frontend/autodiff), emitted into the step's HLO.

As in PyTorch, `.grad` accumulates: a second backward() adds to it (in place, so its buffer
is reused); `w.grad = None` (or `w.grad.zero_()`) starts again.
"""

from __future__ import annotations

from collections import ChainMap
from typing import TYPE_CHECKING, Any

import numpy as np

from ..frontend.autodiff import vjp
from ..frontend.source import user_frame
from .graph import Call, Data, InputSlot, PendingOp, Ref, topological
from .live import live_tensors, no_grad
from .replay import run_node

if TYPE_CHECKING:
    from .tensor import LazyTensor


def backward(loss: "LazyTensor", gradient: "LazyTensor | None" = None) -> None:
    from .tensor import LazyTensor  # tensor.py imports this module's caller

    if not loss.requires_grad:
        raise RuntimeError("backward(): the tensor does not require grad: no tensor it was computed from has "
                           "requires_grad=True, or it was computed under lz.no_grad()")
    if gradient is None and loss.shape != ():
        raise RuntimeError(f"backward() of a non-scalar tensor ({loss._ref.aval.short()}) needs `gradient=`, "
                           "the cotangent (grad can be created implicitly only for scalar outputs)")
    if gradient is not None and (gradient.shape != loss.shape or gradient.dtype != loss.dtype):
        raise ValueError(f"backward(gradient=): {gradient._ref.aval.short()} does not match {loss._ref.aval.short()}")
    root = loss._ref if loss._ref.pending or loss._history is None else loss._history
    wrt = _reached_leaves(root)
    if not wrt:
        return
    inputs = (root, *[t._ref for t in wrt], *([gradient._ref] if gradient is not None else []))
    call = Call("grad", None, tuple(InputSlot(i) for i in range(len(inputs))),
                {"n": len(wrt), "seeded": gradient is not None})
    key = ("grad", len(wrt), gradient is not None)
    op = PendingOp(call, inputs, tuple(t._ref.aval for t in wrt), user_frame(), key, differentiable=False,
            replay=_replay_grad)
    with no_grad():
        for i, leaf in enumerate(wrt):
            g = LazyTensor(Ref(op, i))
            if leaf.grad is None:
                leaf.grad = g
            else:
                leaf.grad += g  # accumulate, as torch does (in place: the old buffer is reused)


def _reached_leaves(root: Ref) -> list["LazyTensor"]:
    """The leaves requiring grad that `root` depends on through differentiable nodes."""
    leaves: dict[int, Any] = {}
    for t in live_tensors():
        if t.is_leaf and t.requires_grad:
            leaves.setdefault(t._ref.node.uid, t)
    found: dict[int, Any] = {}
    stack = [root.node]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        if node.uid in seen:
            continue
        seen.add(node.uid)
        if node.uid in leaves:
            found[node.uid] = leaves[node.uid]
            continue  # gradients stop at a leaf
        if isinstance(node, Data) and node.donated:
            raise RuntimeError("backward(): a value this tensor was computed from has since been updated in place "
                               "by a step (its buffer now holds the new value); call backward() before the "
                               "update's mark_step, as torch requires (it reports such a tensor as modified "
                               "by an inplace operation)")
        if isinstance(node, PendingOp) and node.differentiable:
            stack.extend(r.node for r in node.inputs)
    return sorted(found.values(), key=lambda t: t._order)


def _replay_grad(op: PendingOp, env: Any) -> tuple:
    """The gradients of the grad node, traced with hloscope.vjp (see the module docstring)."""
    n = op.call.kwargs["n"]
    loss_ref, wrt_refs = op.inputs[0], op.inputs[1 : 1 + n]
    subgraph = topological([loss_ref])

    def loss_of(*variables):
        local: dict[int, list] = {}
        for ref, value in zip(wrt_refs, variables):
            outs = list(env[ref.node.uid])
            outs[ref.index] = value
            local[ref.node.uid] = outs
        depends = set(local)
        values = ChainMap(local, env)
        for node in subgraph:
            if node.uid in local or not isinstance(node, PendingOp) or not node.differentiable:
                continue
            if any(r.node.uid in depends for r in node.inputs):
                local[node.uid] = run_node(node, values)
                depends.add(node.uid)
        return values[loss_ref.node.uid][loss_ref.index]

    primals = [env[r.node.uid][r.index] for r in wrt_refs]
    value, pull_back = vjp(loss_of, *primals)[:2]
    if op.call.kwargs["seeded"]:
        cotangent = env[op.inputs[n + 1].node.uid][op.inputs[n + 1].index]
    else:
        cotangent = np.ones_like(value)
    return tuple(pull_back(cotangent))
