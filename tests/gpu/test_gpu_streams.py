"""Stream assignment: independent kernels on separate streams, joined by events."""

from hloscope.backend.buffers import ArrayStorage
from hloscope.backend.gpu.program import KernelLaunch
from hloscope.backend.gpu.streams import assign, dependencies, thunk_sequence
from hloscope.ir.shape import array
from gpu_helpers import compile_gpu, corpus_case, module

TWO_DOTS = module("""
    a = f32[64,128] parameter(0)
    b = f32[128,32] parameter(1)
    c = f32[64,128] parameter(2)
    x = f32[64,32] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
    y = f32[64,32] dot(c, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
    s = f32[64,32] add(x, y)
""")


def test_two_independent_dots_run_on_two_streams_that_join_before_their_consumer():
    thunks = compile_gpu(TWO_DOTS, ptxas=False).report.thunks
    by_instruction = {t.instruction: t for t in thunks.thunks}
    x, y, s = by_instruction["x"], by_instruction["y"], by_instruction["s"]
    assert x.stream != y.stream  # both read parameter 1: reading together is no hazard
    assert s.stream in (x.stream, y.stream)
    other = y if s.stream == x.stream else x
    assert s.waits == (other.index,)  # the join: s waits on the other stream's event
    assert thunks.streams == 2
    line = thunks.text().splitlines()[1 + s.index]
    assert f"stream={s.stream}" in line and f"event {other.index} (stream {other.stream})" in line


def _launch(name: str, *buffers: ArrayStorage) -> KernelLaunch:
    return KernelLaunch(name, (1, 1, 1), (32, 1, 1), 0, buffers)


def _arena(offset: int, value: str, size: int = 64) -> ArrayStorage:
    return ArrayStorage("arena", offset, size, value, array("f32", size // 4))


PARAM = ArrayStorage("param", 0, 64, "p", array("f32", 16))
NAMES = {f"k{i}": f"k{i}" for i in range(8)}  # kernel -> the instruction it computes


def test_hazards_on_reused_bytes_order_kernels_and_shared_reads_do_not():
    steps = (_launch("k0", PARAM, _arena(0, "k0")),  # writes A
             _launch("k1", _arena(0, "k0"), _arena(64, "k1")),  # reads A, writes B
             _launch("k2", PARAM, _arena(0, "k2")),  # the plan reused A's bytes: after k0 and k1
             _launch("k3", PARAM, _arena(128, "k3")),  # independent
             _launch("k4", _arena(64, "k1"), _arena(192, "k4")),  # two readers of B ...
             _launch("k5", _arena(64, "k1"), _arena(256, "k5")))  # ... need not wait for each other
    assert dependencies(steps, NAMES) == [set(), {0}, {0, 1}, set(), {1}, {1}]
    assert assign(steps, instruction_of=NAMES) == [0, 0, 0, 1, 2, 3]


def test_streams_are_capped_and_a_chain_stays_on_one():
    independent = tuple(_launch(f"k{i}", PARAM, _arena(64 * i, f"k{i}")) for i in range(6))
    assert assign(independent, max_streams=3, instruction_of=NAMES) == [0, 1, 2, 0, 1, 2]
    assert "6 thunks on 3 stream(s) (at most 3)" in thunk_sequence(independent, NAMES, max_streams=3).text()
    chain = tuple(_launch(f"k{i}", _arena(64 * i, f"k{i}"), _arena(64 * i + 64, f"k{i + 1}")) for i in range(6))
    assert assign(chain, instruction_of={f"k{i}": f"k{i + 1}" for i in range(6)}) == [0] * 6


def test_unknown_kernels_are_taken_to_write_every_arena_buffer_they_touch():
    steps = (_launch("a", _arena(0, "x"), _arena(64, "y")), _launch("b", _arena(0, "x"), _arena(128, "z")))
    assert dependencies(steps) == [set(), {0}]


def test_a_host_driven_loop_joins_every_stream():
    report = compile_gpu(corpus_case("fori_damped")[0], ptxas=False).report
    thunks = report.thunks.thunks
    loop = next(t for t in thunks if t.kind == "while")
    assert loop.stream == 0 and loop.depth == 0
    nested = [t for t in thunks if t.depth > 0]
    assert nested and all(t.stream == 0 for t in nested)
    assert len([t for t in thunks if t.kind == "kernel"]) == len(report.kernels)
