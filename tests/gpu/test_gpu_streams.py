"""Stream assignment: independent kernels on separate streams, joined by events."""

from hloscope.backend.buffers import Buffer
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


def _launch(name: str, *buffers: Buffer) -> KernelLaunch:
    return KernelLaunch(name, (1, 1, 1), (32, 1, 1), 0, buffers)


def _arena(offset: int, size: int = 64) -> Buffer:
    return Buffer("arena", offset, size, f"v{offset}", array("f32", size // 4))


def test_reused_arena_bytes_order_kernels_that_share_no_value():
    # k2 writes the bytes k0 wrote and k1 read (the memory plan reused them): a hazard
    param = Buffer("param", 0, 64, "p", array("f32", 16))
    steps = (_launch("k0", param, _arena(0)), _launch("k1", _arena(0), _arena(64)),
             _launch("k2", param, _arena(0)), _launch("k3", param, _arena(128)))
    assert dependencies(steps) == [set(), {0}, {0, 1}, set()]
    assert assign(steps) == [0, 0, 0, 1]


def test_streams_are_capped_and_a_chain_stays_on_one():
    param = Buffer("param", 0, 64, "p", array("f32", 16))
    steps = tuple(_launch(f"k{i}", param, _arena(64 * i)) for i in range(6))
    assert assign(steps, max_streams=3) == [0, 1, 2, 0, 1, 2]
    text = thunk_sequence(steps, {}, max_streams=3).text()
    assert "6 thunks on 3 stream(s) (at most 3)" in text


def test_a_host_driven_loop_joins_every_stream():
    report = compile_gpu(corpus_case("fori_damped")[0], ptxas=False).report
    thunks = report.thunks.thunks
    loop = next(t for t in thunks if t.kind == "while")
    assert loop.stream == 0 and loop.depth == 0
    nested = [t for t in thunks if t.depth > 0]
    assert nested and all(t.stream == 0 for t in nested)
    assert len([t for t in thunks if t.kind == "kernel"]) == len(report.kernels)
