"""hloscope.autojit end to end: numpy's results for functions mixing compiled and host-only
calls, the clusters the Done-when of issue 17 names, the signature cache, and the errors."""

from __future__ import annotations

import numpy as np
import pytest

import hloscope
from hloscope.autocluster import HostCallError, autojit, host
from hloscope.autocluster.graph_passes import run_graph_passes
from hloscope.errors import UnsupportedError
from hloscope.passes.pipeline import PassError
from hloscope.passes.record import PassRecord

rng = np.random.default_rng(0)
X = rng.standard_normal((4, 3)).astype(np.float32)
W = rng.standard_normal((3, 5)).astype(np.float32)
B = rng.standard_normal(5).astype(np.float32)
A = rng.standard_normal((4, 4))
V = rng.standard_normal(4)


def dense(x, w, b):
    return np.tanh(x @ w + b)


def solve_between(a, v):
    """supported -> host call (np.linalg.solve) -> supported."""
    m = a @ a.T + 4.0 * np.eye(4)
    y = np.linalg.solve(m, v)
    return np.exp(y) * 3.0 - y


def test_dot_and_add_make_one_cluster_with_tanh_on_the_host():
    f = autojit(dense, supported_ops={"dot", "add"})
    (cluster,) = f.clusters(X, W, B)
    assert cluster.ops == ("dot", "add")
    assert cluster.plumbing == ("broadcast",)  # b broadcast to x @ w's shape goes with its add
    final = f.record(X, W, B).final
    assert [n.opcode for n in final.nodes if n.kind == "op"] == ["tanh"]
    assert "op tanh not in supported_ops {add, dot}" in f.record(X, W, B).reasons().values()
    np.testing.assert_allclose(f(X, W, B), dense(X, W, B), rtol=1e-5, atol=1e-6)


def test_supported_host_supported_makes_exactly_two_clusters():
    f = autojit(solve_between)
    clusters = f.clusters(A, V)
    assert [c.ops for c in clusters] == [("dot", "add"), ("exponential", "multiply", "subtract")]
    assert clusters[0].outputs == ("add.1",) and clusters[1].inputs == ("host.solve",)
    np.testing.assert_allclose(f(A, V), solve_between(A, V), rtol=1e-12)


def test_second_call_compiles_nothing_and_a_new_shape_compiles_each_cluster_once():
    f = autojit(lambda a, v: np.sin(np.linalg.solve(a @ a.T + 4.0, v) * 2.0 + 1.0) + v)
    f(A, V)
    assert (f.cache_info().hits, f.cache_info().misses) == (0, 2)
    f(A, V)
    assert (f.cache_info().hits, f.cache_info().misses) == (2, 2)
    a3, v3 = A[:3, :3].copy(), V[:3].copy()
    got = f(a3, v3)
    assert (f.cache_info().hits, f.cache_info().misses) == (2, 4)
    np.testing.assert_allclose(got, np.sin(np.linalg.solve(a3 @ a3.T + 4.0, v3) * 2.0 + 1.0) + v3, rtol=1e-12)
    stats = f.record(A, V).clusters
    assert all(s.misses == 1 and s.hits == 1 and s.runs == 2 and s.compile_seconds > 0 for s in stats.values())


def test_fft_results_are_complex_and_stay_on_the_host_with_the_reason():
    def spectrum(x):
        power = np.abs(np.fft.fft(x)) ** 2
        return np.sum(np.sin(power) + power)

    f = autojit(spectrum)
    x = rng.standard_normal(8)
    np.testing.assert_allclose(f(x), spectrum(x), rtol=1e-12)
    reasons = f.record(x).reasons()
    assert reasons["host.fft"].startswith("host call numpy.fft.fft (no lowering: numpy.fft.fft is not supported")
    assert "operand host.fft is complex128: hloscope compiles no complex types" in reasons["host.absolute"]
    (cluster,) = f.clusters(x)
    assert cluster.inputs == ("host.absolute",)  # the float magnitude enters, never the complex spectrum


def test_contracting_an_edge_around_a_host_call_is_refused():
    """a -> host -> b with a -> b: a and b in one cluster would feed the host call and wait for it."""
    @host
    def on_host(t):
        return t * 1.0

    def f(x):
        a = np.sin(x) * 2.0
        return np.cos(a) + on_host(a) * 3.0

    g = autojit(f)
    x = rng.standard_normal(8)
    clusters = g.clusters(x)
    assert [c.ops for c in clusters] == [("sine", "multiply", "cosine"), ("multiply", "add")]
    refused = [d for d in g.record(x).passes[0].log if d.action == "refused"]
    assert [str(d) for d in refused] == [
        "refused add.1: not merged with cosine.1: would create a cycle through host host.on_host"]
    assert not any(d.accepted for d in refused)
    np.testing.assert_allclose(g(x), f(x), rtol=1e-12)


def test_clusters_below_the_minimum_size_are_dissolved():
    def f(x):
        return np.tanh(np.linalg.solve(x, x[:, 0]))  # one real op after the host call

    a = A + 4 * np.eye(4)
    assert autojit(f).clusters(a) == []
    reason = autojit(f).record(a).reasons()["tanh.1"]
    assert reason == "cluster of 1 op (tanh.1) below min size 2"
    assert [c.ops for c in autojit(f, min_cluster_size=1).clusters(a)] == [("tanh",)]
    np.testing.assert_allclose(autojit(f)(a), f(a), rtol=1e-12)


def test_every_node_out_of_a_cluster_has_its_reason():
    f = autojit(solve_between)
    rec = f.record(A, V)
    marked = rec.passes[0].after
    left_out = {n.name for n in marked.nodes if n.cluster is None}
    assert left_out == set(rec.reasons())
    assert rec.reasons()["host.solve"].startswith("host call numpy.linalg.solve (no lowering")
    assert rec.reasons()["a"] == "an argument: a graph input, provided by the caller"


def test_the_three_passes_are_recorded_with_snapshots():
    rec = autojit(solve_between).record(A, V)
    assert [p.name for p in rec.passes] == ["mark_for_compilation", "encapsulate_subgraphs", "build_xla_ops"]
    assert [n.kind for n in rec.passes[1].after.nodes].count("call") == 2
    kinds = [n.kind for n in rec.final.nodes]
    assert kinds.count("xla_compile") == kinds.count("xla_run") == 2
    assert kinds.index("xla_compile") + 1 == kinds.index("xla_run")
    assert rec.traced is rec.passes[0].before and all(n.cluster is None for n in rec.traced.nodes)


def test_graph_passes_leave_pass_records_as_the_pass_manager_does():
    def spectrum(x):
        return np.fft.fft(x)

    rec = autojit(spectrum).record(V)  # nothing to compile: no cluster, nothing to encapsulate or split
    assert all(isinstance(p, PassRecord) and p.pipeline == "autocluster" for p in rec.passes)
    mark, encapsulate, build = rec.passes
    assert not encapsulate.changed and encapsulate.after is encapsulate.before  # the runner decides, as Pipeline does
    assert not build.changed and rec.final is rec.traced
    assert "MarkForCompilationPass" in mark.doc and mark.instruction_delta == 0


def test_a_failing_graph_pass_is_named():
    class Broken:
        name = "broken"

        def run(self, graph, log):
            raise KeyError("no such node")

    with pytest.raises(PassError, match="pass broken failed: KeyError"):
        run_graph_passes([Broken()], autojit(solve_between).record(A, V).traced)


def test_bytes_crossing_host_and_cluster_edges():
    f = autojit(solve_between)
    f(A, V)
    rec = f.record(A, V)
    first, second = rec.clusters["cluster_0"], rec.clusters["cluster_1"]
    assert (first.bytes_in, first.bytes_out) == (A.nbytes, A.nbytes)  # a in, m out to the solve
    assert (second.bytes_in, second.bytes_out) == (V.nbytes, V.nbytes)
    assert rec.edges[("cluster_0", "host")] == A.nbytes


def test_host_callbacks_with_declared_outputs_and_pytrees():
    calls = []

    @host(out=(np.zeros(4), np.zeros((), np.int64)))
    def stats(t, scale):
        calls.append(scale)
        return t * scale, np.int64(np.argmax(t))

    def f(x):
        y, k = stats(np.exp(x) + 1.0, scale=2.0)
        return np.log(y) * 2.0 + k

    g = autojit(f)
    np.testing.assert_allclose(g(V), f(V), rtol=1e-12)
    assert calls == [2.0, 2.0]  # declared outputs: never called on stand-ins
    (node,) = [n for n in g.record(V).final.nodes if n.kind == "host"]
    assert node.outputs == ("host.stats.1.out0", "host.stats.1.out1")


def test_a_host_call_that_fails_on_its_stand_ins_names_the_function_and_line():
    @host
    def picky(t):
        if not np.all(np.isfinite(1.0 / t)):
            raise ValueError("needs non-zero values")
        raise ValueError("never happy")

    with pytest.raises(HostCallError, match=r"host call .*picky raised .* \(f64\[4\]\): ValueError: needs non-zero") as e:
        autojit(lambda x: picky(x * 2.0) + 1.0).record(V)
    assert "test_autojit.py" in str(e.value) and "picky(x * 2.0)" in str(e.value)


def test_a_host_call_whose_shape_depends_on_values_is_refused_at_run_time():
    f = autojit(lambda x: np.sin(np.flatnonzero(x > 0) * 1.0) * 2.0 + 1.0)
    with pytest.raises(HostCallError, match="returned .* at run time but .* on the stand-ins"):
        f(V)


def test_jit_still_refuses_what_autojit_runs_on_the_host():
    with pytest.raises(UnsupportedError, match="numpy.linalg.solve is not supported by hloscope.jit"):
        hloscope.jit(solve_between)(A, V)
    marked = host(np.sin)
    with pytest.raises(UnsupportedError, match="host callback .* hloscope.autojit runs it on the host"):
        hloscope.jit(lambda x: marked(x))(V)
    np.testing.assert_array_equal(marked(V), np.sin(V))  # on concrete values: just the call


def test_fully_supported_function_is_one_cluster_with_the_jit_result():
    def f(x, w, b):
        return np.linalg.norm(dense(x, w, b), axis=1) + np.logaddexp(x, 1.0).sum()

    g = autojit(f)
    (cluster,) = g.clusters(X, W, B)
    assert "dot" in cluster.ops and not [n for n in g.record(X, W, B).final.nodes if n.kind in ("host", "op")]
    np.testing.assert_allclose(g(X, W, B), hloscope.jit(f)(X, W, B), rtol=1e-6)
    np.testing.assert_allclose(g(X, W, B), f(X, W, B), rtol=1e-5)


def test_supported_ops_must_be_hlo_opcodes():
    with pytest.raises(ValueError, match="'matmul', which is not an HLO opcode \\(HLO calls it 'dot'\\)"):
        autojit(dense, supported_ops={"matmul", "add"})
    with pytest.raises(ValueError, match="min_cluster_size must be at least 1"):
        autojit(dense, min_cluster_size=0)


def test_an_autojit_function_has_no_whole_module_methods_and_inlines_inside_jit():
    f = autojit(dense, supported_ops={"dot", "add"})
    for whole_module_method in ("trace", "compile", "specialize"):
        assert not hasattr(f, whole_module_method)  # it shares jit's signatures, not what it has not got
    outer = hloscope.jit(lambda x, w, b: f(x, w, b) * 2.0)
    np.testing.assert_allclose(outer(X, W, B), 2.0 * dense(X, W, B), rtol=1e-5, atol=1e-6)
