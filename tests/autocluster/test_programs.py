"""autojit on programs of many shapes: pytrees in and out, loops and branches in clusters,
ops left on the host that call computations, callbacks whose result is unused, integer
data; every result compared with numpy's."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import hloscope
import hloscope.numpy as hnp
from hloscope.autocluster import autojit
from hloscope.frontend.pytree import flatten

rng = np.random.default_rng(1)
A = rng.standard_normal((3, 3))
V = rng.standard_normal(3)


def same_as_numpy(f, *args, **options):
    g = autojit(f, **options)
    got, want = flatten(g(*args)), flatten(f(*args))
    assert got[1] == want[1]
    for a, b in zip(got[0], want[0]):
        assert np.shape(a) == np.shape(b) and np.asarray(a).dtype == np.asarray(b).dtype
        np.testing.assert_allclose(a, b, rtol=1e-12)
    return g


def test_pytrees_in_and_out_with_an_argument_and_a_constant_returned():
    g = same_as_numpy(lambda p: {"x": p["a"] @ p["v"] + 1.0, "y": (np.linalg.det(p["a"]), p["v"], 3.0)},
                      {"a": A, "v": V})
    assert [c.ops for c in g.clusters({"a": A, "v": V})] == [("dot", "add")]


def test_a_loop_and_a_branch_are_clustered_with_their_bodies():
    loop = same_as_numpy(lambda a, v: hloscope.fori_loop(0, 3, lambda i, c: c * 0.5 + np.tanh(c), np.linalg.solve(a, v)) * 2.0, A, V)
    assert "while" in loop.clusters(A, V)[0].ops
    branch = same_as_numpy(lambda a: hloscope.cond(np.sum(a) > 0, lambda t: t * 2.0 + 1.0, lambda t: t - 1.0,
                                                   np.linalg.inv(a)), A)
    assert "conditional" in branch.clusters(A)[0].ops


def test_ops_left_on_the_host_run_with_the_evaluator_even_when_they_call_a_computation():
    g = same_as_numpy(lambda a, v: np.sum(a * 2.0 + 1.0, axis=0) * v, A, V, supported_ops={"add", "multiply"})
    record = g.record(A, V)
    host_ops = [n.opcode for n in record.final.nodes if n.kind == "op"]
    assert host_ops == ["constant", "reduce", "multiply"]  # the reduce's init value, and a cluster of one op
    assert record.reasons()["constant.3"] == "a constant (no operands): never clustered itself; a cluster that reads it gets its own copy"
    assert record.hosts["reduce.1"].calls == 1


def test_a_callback_whose_result_is_unused_still_runs():
    seen = []
    note = hloscope.host(lambda t: seen.append(float(t.sum())))
    g = autojit(lambda a: (note(a), a * 2.0 + 1.0)[1])
    np.testing.assert_allclose(g(A), A * 2.0 + 1.0)
    assert seen == [0.0, A.sum()]  # once on its zero stand-in (finding its outputs), once on the values
    g(A)
    assert seen == [0.0, A.sum(), A.sum()]


def test_integers_and_a_complex_result_returned_from_the_host():
    same_as_numpy(lambda a: np.cumsum(np.sort(a) * 2 + 1), np.array([3, 1, 2], np.int32))
    g = same_as_numpy(lambda v: np.fft.fft(v * 2.0 + 1.0), V)
    assert g(V).dtype == np.complex128


def test_lower_gives_the_traced_module_with_host_outputs_as_parameters():
    module = autojit(lambda a, v: np.linalg.solve(a, v) * 2.0).lower(A, V)
    assert [p.name for p in module.entry_computation.parameters] == ["a", "v", "host.solve"]


@pytest.mark.skipif(sys.version_info < (3, 11), reason="exception notes are Python 3.11+; the error itself is raised on 3.10 too")
def test_a_host_call_that_raises_at_run_time_says_which_node_and_line():
    g = autojit(lambda a, v: np.linalg.solve(a * 0.0, v) + 1.0)
    with pytest.raises(np.linalg.LinAlgError) as e:
        g(A, V)
    assert any("host call host.solve (numpy.linalg.solve), written at test_programs.py" in n for n in e.value.__notes__)


def test_the_record_shows_itself_as_html():
    g = autojit(lambda a, v: np.exp(np.linalg.solve(a, v)) * 2.0)
    g(A, V)
    page = g.record(A, V)._repr_html_()
    assert "cluster_0" in page and "exponential, multiply" in page and "numpy.linalg.solve" in page


def test_a_constant_read_by_two_clusters_is_copied_into_each():
    def f(a, v):
        scale = hnp.asarray(np.array([1.0, 2.0, 3.0]))  # one constant, read on both sides of the solve
        y = np.linalg.solve(a, v * scale + 1.0)
        return np.exp(y) * scale

    g = same_as_numpy(f, A, V)
    rec = g.record(A, V)
    first, second = rec.final.clusters
    assert first.copies == ("constant.1", "constant.2") and second.copies == ("constant.1",)  # 2: the + 1.0
    assert second.inputs == ("host.solve",)  # no value sent between the clusters for the constant
    encapsulate = rec.passes[1]
    assert {d.subject for d in encapsulate.log if d.action == "removed"} == {"constant.1", "constant.2"}
    assert not [n for n in rec.final.nodes if n.kind == "op"]


def test_an_autojit_function_inside_another_trace_is_inlined():
    inner = autojit(lambda a, v: np.linalg.solve(a, v) * 2.0)
    outer = same_as_numpy(lambda a, v: np.exp(inner(a, v)) + 1.0, A, V)
    assert [n.opcode for n in outer.record(A, V).final.nodes if n.kind == "host"] == ["numpy.linalg.solve"]
    with pytest.raises(hloscope.UnsupportedError, match="numpy.linalg.solve is not supported by hloscope.jit"):
        hloscope.jit(lambda a, v: inner(a, v) + 1.0)(A, V)


def test_complex_arguments_stay_on_the_host():
    signal = np.exp(1j * np.linspace(0.0, 3.0, 8)) * (1.0 + np.arange(8))

    def f(z, scale):
        return np.sum(np.sin(np.abs(np.fft.ifft(z)) * scale) + 1.0)

    g = same_as_numpy(f, signal, 2.0)
    rec = g.record(signal, 2.0)
    assert rec.traced.values["z"].host_only and rec.traced.values["z"].short() == "c128[8]"
    assert [n.opcode for n in rec.final.nodes if n.kind == "host"] == ["numpy.fft.ifft", "numpy.absolute"]
    assert "operand z is complex128" in rec.reasons()["host.ifft"]
