"""`mark_step`: cut the pending graph of every live tensor, find or compile its program, run it.

1. Cut: the live tensors whose value is pending are the step's outputs; every node they
   depend on, in a canonical order (graph.topological), is the step graph; its device-data
   nodes are the program's parameters, in that order.
2. Key: the graph's structure: each node's call key (function and static arguments, not
   input values), its wiring, the parameters' shapes and dtypes, which nodes are outputs, and
   which outputs update a parameter in place. Equal keys lower to the same HLO, so the key
   is the cache key and no trace is needed on a hit.
3. Compile on a miss: the graph is replayed through hloscope's tracer (a function of the
   parameters re-applying the recorded numpy calls, replay.py), the module gets
   `input_output_alias` for the in-place updates, and hloscope's compiler makes the program.
4. Run, and make each output the new device data of its tensors. If anything before the
   run fails, nothing changes: the tensors keep their pending graph and their data.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ..compilation.record import Compilation
from ..compiler import compile_traced, jit
from ..frontend.source import SourceInfo, user_frame
from ..ir.aliasing import Alias, InputOutputAlias
from ..ir.module import HloModule
from ..runtime.compile_cache import SignatureCache
from . import history
from .graph import Data, InputSlot, PendingNode, PendingOp, Ref, describe_static, topological
from .history import NodeLine, StepRecord
from .live import live_tensors
from .metrics import METRICS, sync_line
from .replay import run_node
from .why import explain_step

BACKEND = "cpu"
_CACHE_LIMIT = 64


@dataclass
class CompiledStep:
    """One cache entry: the program of a step graph and what it came from."""

    run: Callable[..., Any]
    module: HloModule
    compilation: Compilation | None
    tuple_root: bool
    digest: str = ""  # a short name for the key (the first 10 hex digits of its SHA-1)
    listing: list[NodeLine] | None = None  # the graph as the first step that compiled it had it


_CACHE: SignatureCache[CompiledStep] = SignatureCache("lazy tensors' step graphs", _CACHE_LIMIT)


def mark_step() -> StepRecord | None:
    """Run everything pending (see the module docstring); the step's record, or None if
    nothing was pending."""
    return run_pending("mark_step", user_frame())


def sync(implicit: bool, what: str, source: SourceInfo | None) -> StepRecord | None:
    """Run everything pending because a value was read (`what`, at `source`)."""
    if implicit:
        METRICS.implicit_sync(source)
    return run_pending(what, source)


def clear_cache() -> None:
    _CACHE.clear()


def cache_size() -> int:
    return len(_CACHE)


def run_pending(trigger: str, source: SourceInfo | None) -> StepRecord | None:
    started = time.perf_counter()
    everyone = live_tensors()
    tensors = [t for t in everyone if t._ref.pending]
    if not tensors:
        return None
    outputs: list[Ref] = []
    out_index: dict[tuple[int, int], int] = {}
    for t in tensors:
        where = (t._ref.node.uid, t._ref.index)
        if where not in out_index:
            out_index[where] = len(outputs)
            outputs.append(t._ref)
    order = topological(outputs)
    number = {node.uid: i for i, node in enumerate(order)}
    params = [n for n in order if isinstance(n, Data)]
    param_number = {n.uid: i for i, n in enumerate(params)}
    aliases = _aliases(everyone, tensors, out_index, param_number)
    key = (tuple(_node_key(n, number) for n in order),
           tuple((number[r.node.uid], r.index) for r in outputs), tuple(aliases))
    index = history.next_index()
    compiled = _CACHE.get(key)
    cut_s = time.perf_counter() - started
    compile_s = 0.0
    hit = compiled is not None
    if compiled is None:
        t0 = time.perf_counter()
        compiled = _compile(order, params, outputs, aliases, f"lazy_step_{index}")
        compiled.digest = hashlib.sha1(repr(key).encode()).hexdigest()[:10]
        compiled.listing = _listing(order, number)
        compile_s = time.perf_counter() - t0
        _CACHE.max_entries = _CACHE_LIMIT
        _CACHE.put(key, compiled)
        METRICS.compiles += 1
        METRICS.compile_time_s += compile_s
    else:
        METRICS.cache_hits += 1
    METRICS.cut_time_s += cut_s
    t0 = time.perf_counter()
    result = compiled.run(*[p.array for p in params])
    run_s = time.perf_counter() - t0
    results = list(result) if compiled.tuple_root else [result]
    new_refs = [Ref(Data(np.asarray(r))) for r in results]
    for t in tensors:
        if t.requires_grad and not t.is_leaf:
            t._history = t._ref  # autograd's record outlives the step, as torch's does
        t._ref = new_refs[out_index[(t._ref.node.uid, t._ref.index)]]
        t._origin = None
    for _, param in aliases:
        params[param].donated = True
    METRICS.executions += 1
    METRICS.execute_time_s += run_s
    METRICS.graph_sizes.append(len(order))
    previous = history.last()
    record = StepRecord(
        index=index, trigger=trigger, source=sync_line(source), cache_hit=hit,
        key_digest=compiled.digest,
        graph_size=len(order), parameters=len(params), outputs=len(outputs), aliases=list(aliases),
        listing=compiled.listing or _listing(order, number), cut_s=cut_s, compile_s=compile_s, run_s=run_s,
        entry=compiled)
    if not hit:
        record.why = explain_step(record, previous, _CACHE_LIMIT, growing=_growing(previous, record))
        METRICS.missed(record.why)
    history.add(record)
    return record


def _growing(previous: StepRecord | None, record: StepRecord) -> bool:
    """The graph grew since the step before, which compiled too: a loop without mark_step."""
    return previous is not None and not previous.cache_hit and previous.graph_size < record.graph_size


def _node_key(node: PendingNode, number: dict[int, int]) -> tuple:
    if isinstance(node, Data):
        return ("data", node.aval.shape, node.aval.dtype.str, node.aval.weak)
    assert isinstance(node, PendingOp)
    return ("op", node.key, tuple((number[r.node.uid], r.index) for r in node.inputs), node.differentiable)


def _aliases(everyone: list, tensors: list, out_index: dict, param_number: dict) -> list[tuple[int, int]]:
    """(output, parameter) pairs where a tensor updated in place can take its old buffer:
    the old data is a parameter of this step, no other live tensor still holds it, and the
    new value has its shape and dtype (XLA's donation, `input_output_alias`)."""
    holders = Counter(t._ref.node.uid for t in everyone if not t._ref.pending)
    pairs: list[tuple[int, int]] = []
    used_outputs: set[int] = set()
    used_params: set[int] = set()
    for t in tensors:
        origin = t._origin
        if origin is None or origin.uid not in param_number or holders[origin.uid]:
            continue
        out = out_index[(t._ref.node.uid, t._ref.index)]
        param = param_number[origin.uid]
        if out in used_outputs or param in used_params or t._ref.aval != origin.aval:
            continue
        used_outputs.add(out)
        used_params.add(param)
        pairs.append((out, param))
    return pairs


def _compile(order: list[PendingNode], params: list[Data], outputs: list[Ref], aliases: list[tuple[int, int]],
             name: str) -> CompiledStep:
    """Trace the replay of the graph into HLO, mark the aliases, compile."""
    def step_fn(*values):
        env: dict[int, list] = {p.uid: [v] for p, v in zip(params, values)}
        for node in order:
            if isinstance(node, PendingOp):
                env[node.uid] = run_node(node, env)
        return tuple(env[r.node.uid][r.index] for r in outputs)

    step_fn.__name__ = name
    # a weak parameter is traced from a Python number, so it promotes as the number did
    module = jit(step_fn).lower(*[p.array.item() if p.aval.weak else p.array for p in params])
    tuple_root = module.entry_computation.root_instruction.shape.is_tuple
    if aliases:
        config = InputOutputAlias(tuple(Alias((out,) if tuple_root else (), param) for out, param in aliases))
        module = module.replace(attrs={"input_output_alias": config, **module.attrs})
    exe = compile_traced(module, BACKEND, {})
    # an executable that honours input_output_alias writes in-place updates into the old buffers
    run = getattr(exe, "call_donating", exe) if aliases else exe
    return CompiledStep(run, module, getattr(exe, "report", None), tuple_root)


def _listing(order: list[PendingNode], number: dict[int, int]) -> list[NodeLine]:
    lines = []
    for i, node in enumerate(order):
        if isinstance(node, Data):
            where = f"{node.source.short_file}:{node.source.line}" if node.source else ""
            lines.append(NodeLine(i, "data", (), node.aval.short(), "", where))
            continue
        assert isinstance(node, PendingOp)
        inputs = tuple(f"%{number[r.node.uid]}" + (f".{r.index}" if r.index else "") for r in node.inputs)
        aval = node.avals[0].short() if len(node.avals) == 1 else "(" + ", ".join(a.short() for a in node.avals) + ")"
        static = _static_text(node)
        source = f"{node.source.short_file}:{node.source.line}" if node.source else ""
        lines.append(NodeLine(i, node.call.name, inputs, aval, static, source))
    return lines


def _static_text(op: PendingOp) -> str:
    """The call's static arguments, short (`axis=1`, `0.1`)."""
    parts = []
    for a in op.call.args:
        if not isinstance(a, InputSlot) and a is not None:
            parts.append(_short(a))
    for k, v in op.call.kwargs.items():
        if v is not None and v is not False:
            parts.append(f"{k}={_short(v)}")
    return ", ".join(parts)


def _short(value: Any) -> str:
    text = repr(describe_static(value)[1:] if isinstance(value, np.generic) else value)
    return text if len(text) <= 40 else text[:37] + "..."
