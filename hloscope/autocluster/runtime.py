"""The runtime: the graph after build_xla_ops, run on real values.

Nodes run in order. An argument is the caller's array; a host call runs its function with
numpy; an op left out of every cluster runs on the host with the reference evaluator (as an
op TensorFlow does not cluster runs with its own kernel); XlaCompile finds the cluster's
executable in the signature cache or compiles it (hloscope.compile, CPU), XlaRun runs it.
A host call's outputs are checked against the shapes and dtypes found at trace time: the
compiled code after it was built for those, and must never see a buffer of another size.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import numpy as np

from ..compilation.executable import Executable
from ..compiler import compile as compile_module
from ..evaluator.api import evaluate_instruction
from ..frontend.pytree import flatten
from ..runtime.compile_cache import SignatureCache
from .graph import Cluster, ProgramGraph, ProgramNode, ProgramValue
from .host_calls import HostCallError, call_with, describe
from .record import AutoClusterRecord, ClusterStats, HostStats


def cluster_executable(cache: SignatureCache[Executable], cluster: Cluster,
                       values: list[np.ndarray]) -> tuple[Executable, float]:
    """XlaCompile: the executable for (the cluster's fingerprint, its input shapes and dtypes)
    and the seconds compiling it took now (0.0 on a hit)."""
    key = (cluster.fingerprint, tuple((v.shape, v.dtype.str) for v in values))
    exe = cache.get(key)
    if exe is not None:
        return exe, 0.0
    start = time.perf_counter()
    exe = compile_module(cluster.module, backend="cpu")
    cache.put(key, exe)
    return exe, time.perf_counter() - start


def run_graph(graph: ProgramGraph, record: AutoClusterRecord, cache: SignatureCache, leaves: list) -> list:
    """The function's flat results for the flat arguments `leaves` (see the module docstring)."""
    env: dict[str, Any] = {}
    args = iter(leaves)
    side = {n.name: _side(n) for n in graph.nodes}
    made_by = graph.producers()
    for n in graph.nodes:
        _count_edges(n, made_by, side, graph.values, record)
        if n.kind == "arg":
            env[n.outputs[0]] = np.asarray(next(args), dtype=graph.values[n.outputs[0]].dtype)
        elif n.kind == "host":
            _run_host(n, graph, env, record)
        elif n.kind == "op":
            _run_op(n, graph, env, record)
        elif n.kind == "xla_compile":
            _compile(n, graph, env, record, cache)
        elif n.kind == "xla_run":
            _run_cluster(n, env, record)
    for v in graph.outputs:  # the results go back to the caller, on the host
        _count(side[made_by[v]], "host", graph.values[v], record)
    record.calls += 1
    return [env[v] for v in graph.outputs]


def _side(n: ProgramNode) -> str:
    return n.cluster if n.kind in ("xla_run", "xla_compile") and n.cluster else "host"


def _count_edges(n: ProgramNode, made_by: dict[str, str], side: dict[str, str], values: dict[str, ProgramValue],
                 record: AutoClusterRecord) -> None:
    """Bytes of each input that crosses between the host and a cluster (XlaCompile reads shapes only)."""
    if n.kind == "xla_compile":
        return
    for v in n.inputs:
        _count(side[made_by[v]], side[n.name], values[v], record)


def _count(src: str, dst: str, value: ProgramValue, record: AutoClusterRecord) -> None:
    if src == dst or value.dtype == "executable":
        return
    record.edges[(src, dst)] = record.edges.get((src, dst), 0) + value.nbytes
    if dst != "host":
        record.clusters[dst].bytes_in += value.nbytes
    else:
        record.clusters[src].bytes_out += value.nbytes


def _timed_host(record: AutoClusterRecord, n: ProgramNode, start: float) -> None:
    stats = record.hosts.setdefault(n.name, HostStats(n.name, n.opcode))
    stats.calls += 1
    stats.seconds += time.perf_counter() - start


def _run_host(n: ProgramNode, graph: ProgramGraph, env: dict, record: AutoClusterRecord) -> None:
    call = n.host
    assert call is not None, "a host node carries its call"
    start = time.perf_counter()
    try:
        out = call_with(call.fn, call.tree, call.statics, call.operand_slots, [env[v] for v in n.inputs])
    except Exception as e:
        if sys.version_info >= (3, 11):  # 3.10 has no exception notes: there the error goes up as raised
            e.add_note(f"in autojit's host call {n.name} ({describe(call.fn)}), written at {n.source}")
        raise
    _timed_host(record, n, start)
    leaves = flatten(out)[0]
    if len(leaves) != len(n.outputs):
        raise HostCallError(f"host call {describe(call.fn)} returned {len(leaves)} arrays at run time but "
                            f"{len(n.outputs)} when autojit traced it ({n.source})")
    for v, x in zip(n.outputs, leaves):
        env[v] = _checked(np.asarray(x), graph.values[v], call.fn, n.source)


def _checked(x: np.ndarray, want: ProgramValue, fn, source: str) -> np.ndarray:
    if x.shape != want.shape or x.dtype.name != want.dtype:
        raise HostCallError(
            f"host call {describe(fn)} returned {x.dtype.name}{list(x.shape)} at run time but "
            f"{want.short()} on the stand-ins autojit traced it with ({source}); its output shape "
            "depends on the values, which compiled code cannot follow: keep what uses it in the "
            "same host function, or declare a fixed shape with hloscope.host(fn, out=...)")
    return x


def _run_op(n: ProgramNode, graph: ProgramGraph, env: dict, record: AutoClusterRecord) -> None:
    start = time.perf_counter()
    inst = graph.module.entry_computation[n.name]
    env[n.name] = evaluate_instruction(graph.module, inst, [env[v] for v in n.inputs])
    _timed_host(record, n, start)


def _compile(n: ProgramNode, graph: ProgramGraph, env: dict, record: AutoClusterRecord, cache: SignatureCache) -> None:
    assert n.cluster is not None, "XlaCompile belongs to a cluster"
    cluster = graph.cluster(n.cluster)
    values = [env[v] for v in n.inputs]
    exe, seconds = cluster_executable(cache, cluster, values)
    stats = record.clusters.setdefault(cluster.name, ClusterStats(cluster.name, list(cluster.ops)))
    stats.signature = f"{cluster.fingerprint}({', '.join(graph.values[v].short() for v in n.inputs)})"
    if seconds:
        stats.misses += 1
        stats.compile_seconds = seconds
    else:
        stats.hits += 1
    stats.compilation = exe.report
    env[n.outputs[0]] = exe


def _run_cluster(n: ProgramNode, env: dict, record: AutoClusterRecord) -> None:
    exe = env[n.inputs[0]]
    start = time.perf_counter()
    result = exe(*[env[v] for v in n.inputs[1:]])
    assert n.cluster is not None, "XlaRun belongs to a cluster"
    stats = record.clusters[n.cluster]
    stats.runs += 1
    stats.run_seconds += time.perf_counter() - start
    results = list(result) if len(n.outputs) > 1 else [result]
    for v, x in zip(n.outputs, results):
        env[v] = x

