"""`grad`, `value_and_grad`, `vjp` and `jvp` with JAX's signatures and semantics, and
`stop_gradient`.

Inside a trace (under `hloscope.jit`, or inside another of these) the function is traced into
the current computation and its derivative is emitted right after it, as ordinary HLO: so a
derivative composes with `jit` and with itself (`grad(grad(f))` differentiates the first
derivative's instructions). Called on concrete arrays, the same trace is jitted and run (the
`jit` that does so is hloscope's compiler; it registers itself with `use_compiler`).

Each differentiated input gets an identity instruction of its own before the function runs,
so an input the function also closes over, or the same array passed twice, is one variable
per position (JAX's semantics: a closed-over value is a constant).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

import numpy as np

from .. import ops
from ..jit import Compiler, Jitted
from ..pytree import TreeDef, flatten, unflatten
from ..rules.common import as_tracer
from ..staging import as_output
from ..trace import current_frame, tracing_frame
from ..tracer import Tracer
from . import cotangents
from .backward import backward
from .forward import forward
from .scopes import emitting_own, scope

# JAX's dtype for the cotangent of an integer or boolean input: zero-size, carries nothing.
float0 = np.dtype([("float0", np.void, 0)])
_compiler: list[Compiler] = []


def use_compiler(compiler: Compiler) -> None:
    """How derivatives called on concrete arrays are compiled (hloscope's compiler sets this)."""
    _compiler[:] = [compiler]


def _name(f) -> str:
    return getattr(f, "__name__", "fn")


def _differentiable(dtype) -> bool:
    return np.dtype(dtype).kind in "fc"


@dataclass
class Linearized:
    """f traced at some inputs in the current frame: what vjp and jvp need from it."""

    inputs: list[Tracer]  # one identity instruction per input leaf
    outputs: list[Tracer]
    out_tree: TreeDef
    aux: Any
    instructions: list  # what f emitted (after the inputs)
    name: str

    def pull_back(self, ct_leaves: Sequence) -> list:
        """The input leaves' cotangents for these output cotangents (None: zero)."""
        frame = tracing_frame("a vjp function")
        seeds: dict = {}
        transform = f"transpose(jvp({self.name}))"
        for out, ct in zip(self.outputs, ct_leaves):
            if ct is None or not _differentiable(out.dtype):
                continue
            with emitting_own(frame, transform, "seed", out.inst):
                cotangents.accumulate(seeds, out.inst.name, cotangents.cast_like(as_tracer(ct), out.dtype))
        cts = backward(frame, self.instructions, seeds, transform)
        return [cts.get(x.inst.name) for x in self.inputs]

    def push_forward(self, tangent_leaves: Sequence) -> list:
        frame = tracing_frame("jvp")
        seeds = {x.inst.name: cotangents.cast_like(as_tracer(t), x.dtype)
                 for x, t in zip(self.inputs, tangent_leaves) if t is not None and _differentiable(x.dtype)}
        with scope(frame, f"jvp({self.name})"):
            tangents = forward(frame, self.instructions, seeds, "")
        return [tangents.get(o.inst.name) for o in self.outputs]


def linearize_here(f: Callable, leaves: Sequence, in_tree: TreeDef, has_aux: bool) -> Linearized:
    """Trace f on `leaves` into the current frame, under the scope jvp(<f>)."""
    frame = tracing_frame("differentiation")
    name = _name(f)
    inputs = [_fresh(as_tracer(x)) for x in leaves]
    start = len(frame.cb.instructions)
    with scope(frame, f"jvp({name})"):
        result = f(*unflatten(in_tree, inputs))
        aux = None
        if has_aux:
            if not (isinstance(result, tuple) and len(result) == 2):
                raise TypeError(f"{name} was differentiated with has_aux=True, so it must return a pair "
                                f"(output, aux); it returned a {type(result).__name__}")
            result, aux = result
        out_leaves, out_tree = flatten(result)
        outputs = [as_output(x, f"output {i} of {name}") for i, x in enumerate(out_leaves)]
    return Linearized(inputs, outputs, out_tree, aux, list(frame.cb.instructions[start:]), name)


def _fresh(x: Tracer) -> Tracer:
    """x as a new variable: an identity convert that algebraic simplification removes."""
    if not _differentiable(x.dtype):
        return x
    return ops.emit("convert", (x,), x.aval.hlo_shape())


# ---- the public functions ----
def vjp(f: Callable, *primals, has_aux: bool = False):
    """(f(*primals), vjp_fn) [, aux]: vjp_fn(cotangent) gives one cotangent per primal
    (float0 zeros for integer and boolean primals)."""
    leaves, in_tree = flatten(primals)
    if current_frame() is None and not _any_tracer(leaves):
        return _eager_vjp(f, primals, has_aux)
    lin = linearize_here(f, leaves, in_tree, has_aux)
    out = unflatten(lin.out_tree, lin.outputs)

    def vjp_fn(ct):
        ct_leaves = _match(ct, lin.out_tree, "the cotangent", "f's output")
        return unflatten(in_tree, _with_zeros(lin.pull_back(ct_leaves), lin.inputs))

    return (out, vjp_fn, lin.aux) if has_aux else (out, vjp_fn)


def jvp(f: Callable, primals: Sequence, tangents: Sequence):
    """(f(*primals), the derivative of f at primals along tangents)."""
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError("jvp takes primals and tangents as tuples or lists (one entry per argument of f)")
    leaves, in_tree = flatten(tuple(primals))
    # an integer primal's tangent is float0 in JAX: it carries nothing (and cannot be traced)
    t_leaves = [np.zeros(np.shape(t), np.float32) if getattr(t, "dtype", None) == float0 else t
                for t in _match(tuple(tangents), in_tree, "the tangents", "the primals")]
    if current_frame() is None and not _any_tracer(leaves + t_leaves):
        jitted = Jitted(lambda p, t: jvp(f, p, t), _the_compiler(), backend="cpu")
        return jitted(tuple(primals), unflatten(in_tree, t_leaves))
    lin = linearize_here(f, leaves, in_tree, False)
    tangents_out = lin.push_forward(t_leaves)
    outs = [t if t is not None else cotangents.zeros(o.aval.hlo_shape()) for t, o in zip(tangents_out, lin.outputs)]
    return unflatten(lin.out_tree, lin.outputs), unflatten(lin.out_tree, outs)


def value_and_grad(f: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False, allow_int: bool = False):
    """A function returning (f(*args), the gradient of f's scalar output w.r.t. args[argnums])."""
    return _GradFunction(f, argnums, has_aux, allow_int, with_value=True)


def grad(f: Callable, argnums: int | Sequence[int] = 0, has_aux: bool = False, allow_int: bool = False):
    """A function returning the gradient of f's scalar output w.r.t. args[argnums]."""
    return _GradFunction(f, argnums, has_aux, allow_int, with_value=False)


def stop_gradient(x):
    """x, as a constant to every derivative taken of it (its instruction is an identity)."""
    leaves, tree = flatten(x)
    if current_frame() is None and not _any_tracer(leaves):
        return x
    out = []
    for leaf in leaves:
        t = as_tracer(leaf)
        if _differentiable(t.dtype):
            t = ops.emit("copy", (t,))
            t.frame.lowering.gradient_stops.add(t.inst.name)
        out.append(t)
    return unflatten(tree, out)


class _GradFunction:
    """What grad and value_and_grad return: traced inside a trace, jitted and run outside."""

    def __init__(self, f, argnums, has_aux, allow_int, with_value):
        self.f, self.has_aux, self.allow_int, self.with_value = f, has_aux, allow_int, with_value
        self.argnums = argnums
        self.nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
        if not self.nums:
            raise ValueError("argnums must name at least one argument")
        self.__name__ = f"{'value_and_grad' if with_value else 'grad'}({_name(f)})"
        self.__wrapped__ = f
        self._jitted: Jitted | None = None

    def __call__(self, *args, **kwargs):
        if max(self.nums) >= len(args):
            raise TypeError(f"{self.__name__}: argnums {self.argnums} names argument {max(self.nums)}, "
                            f"but it was called with {len(args)} positional arguments")
        self._check_dtypes(args)
        if current_frame() is None and not _any_tracer(flatten((args, kwargs))[0]):
            if self._jitted is None:
                self._jitted = Jitted(self._traced, _the_compiler(), backend="cpu")
                self._jitted.__name__ = self.__name__
            return self._restore_float0(self._jitted(*args, **kwargs), args)
        return self._restore_float0(self._traced(*args, **kwargs), args)

    def _check_dtypes(self, args) -> None:
        for i in self.nums:
            for leaf in flatten(args[i])[0]:
                dtype = leaf.dtype if isinstance(leaf, Tracer) else np.asarray(leaf).dtype
                if not _differentiable(dtype) and not self.allow_int:
                    raise TypeError(f"{self.__name__}: argument {i} has dtype {dtype}; grad needs floating-point "
                                    "inputs (pass allow_int=True for float0 zeros in its place, as in JAX)")

    def _traced(self, *args, **kwargs):
        diff = tuple(args[i] for i in self.nums)

        def of_diff(*values):
            full = list(args)
            for i, v in zip(self.nums, values):
                full[i] = v
            return self.f(*full, **kwargs)

        of_diff.__name__ = _name(self.f)
        leaves, in_tree = flatten(diff)
        lin = linearize_here(of_diff, leaves, in_tree, self.has_aux)
        if len(lin.outputs) != 1 or lin.outputs[0].shape != () or not _differentiable(lin.outputs[0].dtype):
            got = ", ".join(o.aval.short() for o in lin.outputs)
            raise TypeError(f"{self.__name__}: grad needs a function with one scalar float output, got ({got}); "
                            "use vjp or jvp for other outputs")
        value = lin.outputs[0]
        cts = lin.pull_back([1.0])
        # integer inputs: a float placeholder here, float0 after (a traced output must be an array)
        grads = [c if c is not None else cotangents.zeros(x.aval.hlo_shape()) if _differentiable(x.dtype)
                 else np.zeros(x.shape, np.float32) for c, x in zip(cts, lin.inputs)]
        g = unflatten(in_tree, grads)
        g = g[0] if isinstance(self.argnums, int) else g
        return self._pack(value, lin.aux, g)

    def _pack(self, value, aux, g):
        """JAX's result layout: grad -> g or (g, aux); value_and_grad -> (value, g) or
        ((value, aux), g)."""
        if self.with_value:
            return ((value, aux), g) if self.has_aux else (value, g)
        return (g, aux) if self.has_aux else g

    def _unpack(self, result):
        """(value, aux, g) from a result laid out by _pack."""
        if self.with_value:
            (value, aux), g = result if self.has_aux else ((result[0], None), result[1])
            return value, aux, g
        g, aux = result if self.has_aux else (result, None)
        return None, aux, g

    def _restore_float0(self, result, args):
        """Integer inputs' gradients as float0 zeros of their shape (JAX's allow_int result)."""
        if not self.allow_int:
            return result
        diff = tuple(args[i] for i in self.nums)
        kinds = [_differentiable(leaf.dtype if isinstance(leaf, Tracer) else np.asarray(leaf).dtype)
                 for leaf in flatten(diff)[0]]
        if all(kinds):
            return result
        value, aux, grads = self._unpack(result)
        leaves, tree = flatten(grads if not isinstance(self.argnums, int) else (grads,))
        fixed = [g if k else np.zeros(np.shape(g), float0) for g, k in zip(leaves, kinds)]
        grads = unflatten(tree, fixed)
        grads = grads[0] if isinstance(self.argnums, int) else grads
        return self._pack(value, aux, grads)


def _eager_vjp(f, primals, has_aux):
    compiler = _the_compiler()

    def forward_only(*p):
        return vjp(f, *p, has_aux=has_aux)[0::2] if has_aux else vjp(f, *p)[0]

    result = Jitted(forward_only, compiler, backend="cpu")(*primals)
    out, aux = result if has_aux else (result, None)
    pull = Jitted(lambda p, ct: vjp(f, *p, has_aux=has_aux)[1](ct), compiler, backend="cpu")
    leaves, in_tree = flatten(primals)

    def vjp_fn(ct):
        cts = pull(tuple(primals), ct)
        fixed = [c if _differentiable(np.asarray(x).dtype) else np.zeros(np.shape(x), float0)
                 for c, x in zip(flatten(cts)[0], leaves)]
        return unflatten(in_tree, fixed)

    return (out, vjp_fn, aux) if has_aux else (out, vjp_fn)


def _with_zeros(cts: list, inputs: list[Tracer]) -> list:
    """None cotangents as zeros; integer inputs' as zeros too (float0 outside a trace)."""
    return [c if c is not None else cotangents.zeros(x.aval.hlo_shape()) if _differentiable(x.dtype)
            else ops.full(x.shape, 0, np.float32) for c, x in zip(cts, inputs)]


def _match(value, tree: TreeDef, what: str, like: str) -> list:
    leaves, got = flatten(value)
    if got != tree:
        raise TypeError(f"{what} must have the structure of {like}: {tree}, got {got}")
    return leaves


def _any_tracer(leaves) -> bool:
    return any(isinstance(x, Tracer) for x in leaves)


def _the_compiler() -> Compiler:
    if not _compiler:
        raise RuntimeError("no compiler registered for derivatives of concrete arrays: import hloscope")
    return _compiler[0]
