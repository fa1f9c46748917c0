"""`hloscope.autojit(f)`: compile the parts of `f` that can be, run the rest on the host.

    f = hloscope.autojit(fn, supported_ops=None, min_cluster_size=2)
    f(x, w)              trace (once per signature), run the three passes, run the graph
    f.clusters(x, w)     the clusters with their ops (ClusterInfo: name, ops, inputs, outputs, module)
    f.cache_misses()     each new signature traced, with what changed (frontend/recompiles.py)
    f.record(x, w)       the AutoClusterRecord: graphs before/after each pass, reasons, timings
    f.cache_info()       XlaCompile's signature cache: hits and misses (compiles)
    hloscope.explore(f, x, w)   the explorer view: graphs per pass, each cluster's compilation

Signatures are hloscope.jit's (shapes, dtypes, static arguments): a new one traces again and
runs the passes again; its clusters are then compiled on their first XlaCompile.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from ..frontend.jit import CacheInfo, StagedFunction
from ..frontend.pytree import unflatten
from ..ir.module import HloModule
from ..ir.opcodes import is_known
from .build_xla_ops import BuildXlaOps
from .encapsulate_subgraphs import EncapsulateSubgraphs
from .graph_passes import run_graph_passes
from .host_calls import HostOnlyArray
from .mark_for_compilation import DEFAULT_MIN_CLUSTER_SIZE, MarkForCompilation
from .record import AutoClusterRecord
from ..compilation.executable import Executable
from ..runtime.compile_cache import SignatureCache
from .runtime import run_graph
from .tracing import trace_program


@dataclass(frozen=True)
class ClusterInfo:
    """One cluster as `.clusters()` lists it: its real ops (plumbing apart) and its function."""

    name: str
    ops: tuple[str, ...]
    plumbing: tuple[str, ...]
    members: tuple[str, ...]
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    module: HloModule

    def __str__(self) -> str:
        extra = f" (+ plumbing: {', '.join(self.plumbing)})" if self.plumbing else ""
        return f"{self.name}: {', '.join(self.ops)}{extra}; in: {', '.join(self.inputs)}; out: {', '.join(self.outputs)}"


class AutoJitted(StagedFunction):
    """An auto-clustered function (see the module docstring). It shares with a jitted
    function how a call's signature is read; it has no one module to trace or compile."""

    def __init__(self, fn: Callable, supported_ops: Iterable[str] | None = None,
                 min_cluster_size: int = DEFAULT_MIN_CLUSTER_SIZE, static_argnums: int | Sequence[int] = (),
                 static_argnames: str | Sequence[str] = ()):
        super().__init__(fn, static_argnums, static_argnames)
        ops = None if supported_ops is None else checked_ops(supported_ops)
        if min_cluster_size < 1:
            raise ValueError(f"autojit: min_cluster_size must be at least 1, not {min_cluster_size}")
        self.passes = (MarkForCompilation(ops, min_cluster_size), EncapsulateSubgraphs(), BuildXlaOps())
        self.signature_cache: SignatureCache[Executable] = SignatureCache(f"hloscope.autojit of {self.__name__}")
        self._records: dict = {}

    def __call__(self, *args, **kwargs):
        if self._inside_a_trace(args, kwargs):
            return self.fn(*args, **kwargs)
        self._misses.calls += 1
        key, leaves, avals = self._signature(args, kwargs)
        record = self._record(key, args, kwargs, avals)
        outs = run_graph(record.final, record, self.signature_cache, leaves)
        return unflatten(record.final.out_tree, outs)

    def record(self, *args, **kwargs) -> AutoClusterRecord:
        """The record for these arguments' signature (traced and passed now if needed)."""
        key, _, avals = self._signature(args, kwargs)
        return self._record(key, args, kwargs, avals)

    def clusters(self, *args, **kwargs) -> list[ClusterInfo]:
        """The clusters for these arguments, each with its ops, inputs, outputs and module."""
        rec = self.record(*args, **kwargs)
        return [ClusterInfo(c.name, c.ops, c.plumbing, c.members, c.inputs, c.outputs, c.module)
                for c in rec.final.clusters]

    def cache_info(self) -> CacheInfo:
        """XlaCompile's cache over every signature: hits, misses (compiles), cluster signatures."""
        sigs = tuple(f"{fp}{[s for s, _ in shapes]}" for fp, shapes in self.signature_cache.keys())
        return CacheInfo(self.signature_cache.hits, self.signature_cache.misses, sigs)

    def lower(self, *args, **kwargs) -> HloModule:
        """The traced module: every supported call's HLO, each host call's outputs as
        placeholder parameters of the ENTRY (what the program graph's op nodes stand for)."""
        return self.record(*args, **kwargs).traced.module

    def _hloscope_explore_(self, *args, run: bool = True, **options):
        """hloscope.explore(f, x): its own view, the program graph per pass, with a cluster's
        explorer a click away (explorer options such as pipeline= are not this view's)."""
        from ..jupyter import split_options
        from ..jupyter.panels.autocluster import explore_autojit

        return explore_autojit(self, *args, **split_options(options)[1])

    def clear_cache(self) -> None:
        self._records.clear()
        self.signature_cache.clear()
        self._misses.clear()

    def __repr__(self) -> str:
        return f"<hloscope.autojit of {self.__name__}>"

    def _abstract(self, x, path: str):
        """jit's abstract value, except that a complex array is one only the host holds."""
        if isinstance(x, (np.ndarray, np.generic, complex)) and np.iscomplexobj(x):
            return HostOnlyArray(np.shape(x), np.asarray(x).dtype)
        return super()._abstract(x, path)

    # ---- tracing and the passes ----
    def _record(self, key, args, kwargs, avals) -> AutoClusterRecord:
        record = self._records.get(key)
        if record is None:
            started = time.perf_counter()
            record = self._records[key] = self._trace_and_pass(key, args, kwargs, avals)
            self._record_miss(key, args, kwargs, record.traced.module, time.perf_counter() - started)
        return record

    def _trace_and_pass(self, key, args, kwargs, avals) -> AutoClusterRecord:
        tree = key[0]
        names = self._paths(args, kwargs)
        start = time.perf_counter()
        graph = trace_program(self.fn, self.__name__, avals, names,
                              lambda params: self._rebuild(tree, params, args, kwargs))
        traced = time.perf_counter() - start
        signature = ", ".join(f"{n}: {a.short()}" for n, a in zip(names, avals))
        return AutoClusterRecord(self.__name__, signature, graph, run_graph_passes(self.passes, graph), traced)


# What users may call an op, and its HLO opcode: supported_ops uses XLA's spelling.
_NUMPY_NAMES = {"matmul": "dot", "exp": "exponential", "sin": "sine", "cos": "cosine", "mul": "multiply",
                "sub": "subtract", "div": "divide", "sum": "reduce", "max": "maximum", "min": "minimum",
                "log1p": "log-plus-one", "expm1": "exponential-minus-one", "where": "select", "neg": "negate"}


def checked_ops(names: Iterable[str]) -> frozenset[str]:
    """`supported_ops` as a set of HLO opcodes; a ValueError naming any that is not one."""
    ops = frozenset([names] if isinstance(names, str) else names)
    for name in sorted(ops):
        if not is_known(name):
            hint = f" (HLO calls it {_NUMPY_NAMES[name]!r})" if name in _NUMPY_NAMES else ""
            raise ValueError(f"autojit: supported_ops names {name!r}, which is not an HLO opcode{hint}; "
                             "use XLA's spelling, e.g. {'dot', 'add', 'tanh', 'exponential'}")
    return ops


def autojit(fn: Callable | None = None, *, supported_ops: Iterable[str] | None = None,
            min_cluster_size: int = DEFAULT_MIN_CLUSTER_SIZE, static_argnums: Any = (),
            static_argnames: Any = ()) -> Any:
    """Auto-cluster `fn` as TensorFlow does for XLA (usable as a decorator): numpy calls
    without a lowering rule and `hloscope.host` callbacks run on the host, and the rest is
    compiled in clusters. `supported_ops` (HLO opcode names, e.g. {"dot", "add"}) restricts
    what may be compiled; `min_cluster_size` counts real ops (plumbing like broadcast apart).
    See docs/autocluster.md."""
    def wrap(f: Callable) -> AutoJitted:
        return AutoJitted(f, supported_ops, min_cluster_size, static_argnums, static_argnames)

    return wrap if fn is None else wrap(fn)
