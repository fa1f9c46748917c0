"""`Jitted`: a numpy function traced to HLO once per signature, compiled, cached and run
(`hloscope.jit` makes one with the compiler: hloscope/compiler.py).

    f = hloscope.jit(fn, static_argnums=(), static_argnames=(), backend="cpu", **compile_options)
    f(x, w)            trace (first time for these shapes/dtypes/static values), compile, run
    f.lower(x, w)      the HloModule, without compiling or running
    f.compile(x, w)    the Executable (with its report), without running
    f.trace(x, w)      the traced program as a listing with source lines (see listing.py)
    f.cache_info()     hits, misses and the signatures compiled so far
    f.cache_misses()   each trace-and-compile with what changed in the key, and how to avoid it

A signature is the pytree structure of the arguments, each array leaf's shape and dtype
(Python scalars count by kind, not value: they are weak-typed traced scalars), and the values
of static arguments (which must be hashable), and the values of the Python constants the
function reads (globals and closure variables: python_constants.py). A call with a new
signature traces and compiles again, and the miss is logged with its cause (recompiles.py). Inside another trace, a jitted function is simply inlined.
"""

from __future__ import annotations

import inspect
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import numpy as np

from ..ir.module import HloModule
from ..runtime.compile_cache import SignatureCache
from .abstract import ShapedArray, abstractify
from .listing import Program
from .python_constants import PythonConstants
from .pytree import TreeDef, flatten, leaf_paths, unflatten
from .recompiles import CacheMisses, CallKey, MissLog
from .source import definition_of, user_frame
from .staging import stage
from .trace import Frame, Lowering, metadata_for
from .tracer import Tracer


# What turns a traced module into something callable: (module, backend, options) -> callable.
Compiler = Callable[[HloModule, str, dict], Callable[..., Any]]


@dataclass(frozen=True)
class CacheInfo:
    """What `f.cache_info()` reports: calls served from the cache, compilations, signatures."""

    hits: int
    misses: int
    signatures: tuple[str, ...]

    @property
    def currsize(self) -> int:
        return len(self.signatures)


@dataclass
class Traced:
    """One signature's trace: the module, how to rebuild outputs, the listing's frame."""

    module: HloModule
    out_tree: TreeDef
    frame: Frame
    signature: str
    executable: Callable | None = field(default=None)  # set when first compiled

    def run(self, leaves: list, avals: list[ShapedArray]):
        if self.executable is None:
            raise RuntimeError(f"the trace for ({self.signature}) was never compiled")
        args = [np.asarray(x, dtype=a.dtype) for x, a in zip(leaves, avals)]
        result = self.executable(*args)
        outs = list(result) if self.module.entry_computation.root_instruction.shape.is_tuple else [result]
        return unflatten(self.out_tree, outs)


class StagedFunction:
    """What every staged function shares, jitted or auto-clustered: the wrapped function,
    its static arguments, and the signature of a call (see the module docstring)."""

    def __init__(self, fn: Callable, static_argnums: int | Sequence[int] = (),
                 static_argnames: str | Sequence[str] = ()):
        self.fn = fn
        self.__name__ = getattr(fn, "__name__", "fn")
        self.__doc__ = getattr(fn, "__doc__", None)
        self.__wrapped__ = fn
        self._params = _parameter_names(fn)
        nums = {static_argnums} if isinstance(static_argnums, int) else set(static_argnums)
        names = {static_argnames} if isinstance(static_argnames, str) else set(static_argnames)
        self._static_nums = nums | {i for i, n in enumerate(self._params) if n in names}
        self._static_names = names | {self._params[i] for i in nums if i < len(self._params)}
        self._constants = PythonConstants(fn)
        self._misses = MissLog(self.__name__)

    def _inside_a_trace(self, args, kwargs) -> bool:
        """Called with tracers, inside another trace: the caller inlines fn."""
        return any(isinstance(x, Tracer) for x in flatten((args, kwargs))[0])

    # ---- signatures ----
    def _split(self, args, kwargs):
        """(dynamic pytree, static values) from the call's arguments."""
        dyn_args = [a for i, a in enumerate(args) if i not in self._static_nums]
        dyn_kwargs = {k: v for k, v in kwargs.items() if k not in self._static_names}
        statics = [(self._name(i), a) for i, a in enumerate(args) if i in self._static_nums]
        statics += sorted((k, v) for k, v in kwargs.items() if k in self._static_names)
        for name, value in statics:
            try:
                hash(value)
            except TypeError:
                raise TypeError(f"static argument {name} of {self.__name__} must be hashable, "
                                f"got a {type(value).__name__}") from None
        return (tuple(dyn_args), dyn_kwargs), tuple(statics)

    def _signature(self, args, kwargs):
        """(key, array leaves, their abstract values). The key: the arguments' structure,
        abstract values and static values, and the Python constants fn reads now."""
        dyn, statics = self._split(args, kwargs)
        leaves, tree = flatten(dyn)
        avals = [self._abstract(x, path) for x, path in zip(leaves, self._paths(args, kwargs))]
        return (tree, tuple(avals), statics, self._constants.values()), leaves, avals

    def _call_key(self, key, args, kwargs, options: tuple = ()) -> CallKey:
        """The key in readable parts, for the miss log."""
        tree, avals, statics, constants = key
        return CallKey(tree, tuple(zip(self._paths(args, kwargs), avals)), statics, constants, options)

    def _record_miss(self, key, args, kwargs, module: HloModule | None, seconds: float, options: tuple = ()):
        return self._misses.record(self._call_key(key, args, kwargs, options), user_frame(), module, seconds)

    def cache_misses(self) -> CacheMisses:
        """Every trace-and-compile so far, oldest first, each with what changed in the key
        since the closest earlier one, and how it could have been avoided."""
        return CacheMisses(self._misses.misses)

    def _abstract(self, x, path: str) -> ShapedArray:
        try:
            return abstractify(x)
        except TypeError as e:
            if isinstance(x, (np.ndarray, np.generic)):
                raise TypeError(f"{self.__name__}: argument {path}: {e}") from None
            raise TypeError(
                f"{self.__name__}: argument {path} is a {type(x).__name__}, which is not array-like; "
                "pass numpy arrays, Python numbers, or tuples/lists/dicts of them, and mark other "
                "arguments static with static_argnums or static_argnames") from None

    def _name(self, i: int) -> str:
        return self._params[i] if i < len(self._params) else f"args[{i}]"

    def _paths(self, args, kwargs) -> list[str]:
        """A readable name per dynamic leaf (`x`, `params['w']`): parameter names and errors."""
        paths = []
        for i, a in enumerate(args):
            paths += [] if i in self._static_nums else leaf_paths(a, self._name(i))
        for k in sorted(kwargs):
            paths += [] if k in self._static_names else leaf_paths(kwargs[k], k)
        return paths

    def _rebuild(self, tree, params, args, kwargs):
        """(positional, keyword) arguments for fn: traced leaves with static values put back."""
        dyn_args, dyn_kwargs = unflatten(tree, params)
        it = iter(dyn_args)
        full = [a if i in self._static_nums else next(it) for i, a in enumerate(args)]
        return full, {**dyn_kwargs, **{k: v for k, v in kwargs.items() if k in self._static_names}}


class Jitted(StagedFunction):
    """A jitted function (see the module docstring)."""

    def __init__(self, fn: Callable, compiler: Compiler, static_argnums: int | Sequence[int] = (),
                 static_argnames: str | Sequence[str] = (), backend: str = "cpu", compile_options: dict | None = None):
        super().__init__(fn, static_argnums, static_argnames)
        self.compiler = compiler
        self.backend = backend
        self.compile_options = dict(compile_options or {})
        # the compile cache's signature layer for this function (hloscope.compile_cache sees it)
        self._cache: SignatureCache[Traced] = SignatureCache(f"hloscope.jit of {self.__name__}")
        self._traces: dict = {}

    # ---- the public methods ----
    def __call__(self, *args, **kwargs):
        if self._inside_a_trace(args, kwargs):
            return self.fn(*args, **kwargs)
        self._misses.calls += 1  # only calls count: lower(), trace() and compile() do not
        key, leaves, avals = self._signature(args, kwargs)
        return self._compiled(key, args, kwargs, avals).run(leaves, avals)

    def compile(self, *args, **kwargs):
        """The executable for these arguments (traced and compiled if needed, then cached):
        `exe.report` holds every stage's artifacts, `exe.save_aot(dir)` writes an object file."""
        key, _, avals = self._signature(args, kwargs)
        return self._compiled(key, args, kwargs, avals).executable

    def _compiled(self, key, args, kwargs, avals):
        options = self._options()
        traced = self._cache.get((key, options))
        if traced is None:
            started = time.perf_counter()
            traced = self._traced(key, args, kwargs, avals)
            traced.executable = self.compiler(traced.module, self.backend, self.compile_options)
            self._cache.put((key, options), traced)
            self._record_miss(key, args, kwargs, traced.module, time.perf_counter() - started, options)
        return traced

    def _options(self) -> tuple:
        """The backend and compile options now (changing them compiles again)."""
        return (("backend", self.backend), *sorted((k, _hashable(v)) for k, v in self.compile_options.items()))

    def lower(self, *args, **kwargs) -> HloModule:
        """The HLO module for these arguments (traced if needed; nothing is compiled or run)."""
        key, _, avals = self._signature(args, kwargs)
        return self._traced(key, args, kwargs, avals).module

    def specialize(self, *args, **kwargs) -> tuple[HloModule, Program, list[np.ndarray]]:
        """What a compilation of this call starts from: the module, its trace listing, and
        the call's array leaves in the module's parameter order, as the traced dtypes (a
        Python float becomes an f32 scalar, as the trace saw it)."""
        key, leaves, avals = self._signature(args, kwargs)
        traced = self._traced(key, args, kwargs, avals)
        flat = [np.asarray(x, dtype=a.dtype) for x, a in zip(leaves, avals)]
        return traced.module, Program(traced.frame, self.__name__), flat

    def trace(self, *args, **kwargs) -> Program:
        """The traced program as a listing, one line per operation with its source line."""
        key, _, avals = self._signature(args, kwargs)
        return Program(self._traced(key, args, kwargs, avals).frame, self.__name__)

    def cache_info(self) -> CacheInfo:
        return CacheInfo(self._cache.hits, self._cache.misses, tuple(t.signature for t in self._cache.values()))

    def clear_cache(self) -> None:
        self._cache.clear()
        self._traces.clear()
        self._misses.clear()

    def __repr__(self) -> str:
        return f"<hloscope.jit of {self.__name__}>"

    # ---- tracing ----
    def _traced(self, key, args, kwargs, avals) -> Traced:
        if key not in self._traces:
            self._traces[key] = self._trace_now(key, args, kwargs, avals)
        return self._traces[key]

    def _trace_now(self, key, args, kwargs, avals) -> Traced:
        tree, _, statics, _ = key
        lowering = Lowering(self.__name__)
        entry = Frame(lowering, lowering.computation_name("main"))
        where = definition_of(self.fn)
        entry.cb.metadata = metadata_for(lowering.scope, "arguments", where)
        names = self._paths(args, kwargs)

        def run(a, k):
            out = self.fn(*a, **k)
            entry.cb.metadata = metadata_for(lowering.scope, "output", where)  # for constants returned
            return out

        outs, out_tree = stage(entry, run, avals, names, lambda params: self._rebuild(tree, params, args, kwargs))
        module = lowering.mb.build(entry.finish(outs))
        return Traced(module, out_tree, entry, _describe(names, avals, statics))

def _parameter_names(fn) -> list[str]:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]


def _hashable(value):
    try:
        hash(value)
        return value
    except TypeError:
        return repr(value)


def _describe(names, avals, statics) -> str:
    """A readable signature: `x: f32[128,256], w: f32[256]; n=3` (for cache_info)."""
    text = ", ".join(f"{n}: {a.short()}" for n, a in zip(names, avals))
    if statics:
        text += "; " + ", ".join(f"{k}={v!r}" for k, v in statics)
    return text
