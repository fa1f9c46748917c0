"""Row chains (backend/cpu/fast/row_chains.py): consecutive kernels over the same rows run a block
of rows at a time. They are the generated code's way (`library=False`; with the library,
softmax and layer norm are row programs: test_row_programs.py). Chained programs compute what numpy does, with one thread or several;
a kernel that reads another's result at other rows never joins; buffers that share memory
unevenly keep kernels apart."""

from __future__ import annotations

import numpy as np
import pytest

import hloscope
from hloscope.backend.buffers import ArrayStorage
from hloscope.backend.cpu.fast import row_chains
from hloscope.backend.cpu.fast.row_chains import ANY, ROW, Chain, ChainMember, row_access
from hloscope.backend.loop_function import LoopKernel
from hloscope.ir.shape import ArrayShape

pytestmark = pytest.mark.hosts  # results that depend on the vector width and FMA (tests/hosts.py)


def softmax(x):
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def layernorm(x, g, b):
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * g + b


def chains_of(report) -> list[str]:
    """The row chain each kernel runs in, from the notes the report shows."""
    return [n.split("row chain ")[1].split(" ")[0] for k in report.kernels for n in k.notes if "row chain" in n]


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("rows,cols", [(64, 256), (37, 100), (1000, 3)])
def test_softmax_chains_its_kernels_and_matches_numpy(threads, rows, cols):
    x = np.random.default_rng(rows).standard_normal((rows, cols)).astype(np.float32)
    exe = hloscope.jit(softmax, threads=threads, parallel_min_elements=1, library=False).compile(x)
    chains = chains_of(exe.report)
    assert len(chains) == len(exe.report.kernels) >= 2 and len(set(chains)) == 1
    assert {k.partitions for k in exe.report.kernels} == {min(threads, rows)}
    np.testing.assert_allclose(exe(x), softmax(x.astype(np.float64)), rtol=2e-5, atol=1e-7)


def test_layernorm_chains_and_matches_numpy():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((300, 128)).astype(np.float32)
    g, b = rng.standard_normal(128).astype(np.float32), rng.standard_normal(128).astype(np.float32)
    exe = hloscope.jit(layernorm, threads=2, parallel_min_elements=1, library=False).compile(x, g, b)
    assert len(chains_of(exe.report)) >= 3
    np.testing.assert_allclose(exe(x, g, b), layernorm(x.astype(np.float64), g, b), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("rows", [96, 100])
def test_a_row_value_kernel_over_whole_vectors_gets_whole_vectors_of_rows(rows):
    """Layer norm's rsqrt kernel runs over one value per row; over whole vectors (96 rows)
    the chain's blocks and partitions are multiples of 16 rows (row_chains.row_step), where
    its rows alone would make blocks of a few."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal((rows, 1000)).astype(np.float32)  # long rows: a few rows fill a block
    g, b = rng.standard_normal(1000).astype(np.float32), rng.standard_normal(1000).astype(np.float32)
    exe = hloscope.jit(layernorm, threads=3, parallel_min_elements=1, library=False).compile(x, g, b)
    blocks = {int(n.split("blocks of ")[1].split(" ")[0]) for k in exe.report.kernels for n in k.notes
              if "row chain" in n}
    assert blocks and all(block % 16 == 0 for block in blocks) == (rows % 16 == 0)
    np.testing.assert_allclose(exe(x, g, b), layernorm(x.astype(np.float64), g, b), rtol=1e-4, atol=1e-4)


def test_a_result_read_at_other_rows_is_never_chained():
    """The max of each row, subtracted from the rows in reverse order: row r needs the max of
    row n-1-r, which a block of rows has not computed yet."""
    x = np.random.default_rng(2).standard_normal((64, 256)).astype(np.float32)

    def reversed_max(x):
        return x - x.max(axis=1, keepdims=True)[::-1]

    exe = hloscope.jit(reversed_max, threads=2, parallel_min_elements=1, library=False).compile(x)
    assert chains_of(exe.report) == []
    np.testing.assert_allclose(exe(x), reversed_max(x), rtol=1e-6)


def test_a_column_reduction_does_not_chain():
    x = np.random.default_rng(3).standard_normal((64, 256)).astype(np.float32)

    def column_share(x):
        return x / x.sum(axis=0, keepdims=True)

    exe = hloscope.jit(column_share, threads=2, parallel_min_elements=1, library=False).compile(x)
    assert chains_of(exe.report) == []
    np.testing.assert_allclose(exe(x), column_share(x), rtol=1e-4, atol=1e-5)


def _comp(text: str):
    return hloscope.parse_hlo(text).entry_computation


def test_row_access_follows_dimension_zero():
    comp = _comp("""HloModule m
add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }
ENTRY e {
  x = f32[8,4] parameter(0)
  v = f32[4] parameter(1)
  r = f32[8] parameter(2)
  t = f32[4,8] parameter(3)
  z = f32[] constant(0)
  s = f32[8] reduce(x, z), dimensions={1}, to_apply=add
  vb = f32[8,4] broadcast(v), dimensions={1}
  rb = f32[8,4] broadcast(r), dimensions={0}
  tt = f32[8,4] transpose(t), dimensions={1,0}
  sb = f32[8,4] broadcast(s), dimensions={0}
  y = f32[8,4] add(vb, rb)
  w = f32[8,4] add(y, tt)
  ROOT o = f32[8,4] multiply(w, sb)
}""")
    assert row_access(comp, 8) == {0: ROW, 1: ANY, 2: ROW, 3: ANY}


def _buffer(slot: int, size: int, value: str) -> ArrayStorage:
    return ArrayStorage("arena", slot, size, value, ArrayShape("f32", (16, size // 64)))


def _member(reads: dict[ArrayStorage, str], writes: list[ArrayStorage]) -> ChainMember:
    kernel = LoopKernel("k", "k", "loop", [*reads, *writes], extent=16)
    return ChainMember(kernel, 16, 1, reads, writes)


def test_buffers_sharing_memory_unevenly_keep_kernels_apart():
    x, y = _buffer(0, 1024, "x"), _buffer(1024, 1024, "y")
    first = Chain([_member({x: ROW}, [y])])
    # reads y by rows and writes a fresh buffer: joins
    assert row_chains._joins(first, _member({y: ROW}, [_buffer(2048, 1024, "z")]))
    # writes over the second half of x and the first of y: a later block would read it overwritten
    assert not row_chains._joins(first, _member({y: ROW}, [_buffer(512, 1024, "w")]))
    # writes x's memory again, row for row (an in-place reuse of the same size): joins
    assert row_chains._joins(first, _member({y: ROW}, [_buffer(0, 1024, "x2")]))
    # reads y at any row: y is written by the chain a block at a time
    assert not row_chains._joins(first, _member({y: ANY}, [_buffer(2048, 1024, "z")]))
    # shares nothing with the chain: nothing to gain
    assert not row_chains._joins(first, _member({_buffer(4096, 1024, "u"): ROW}, [_buffer(8192, 1024, "v")]))


def test_a_long_run_of_row_kernels_is_cut_into_chains_of_bounded_length():
    x = np.random.default_rng(4).standard_normal((96, 200)).astype(np.float32)

    def centred_again_and_again(x):
        for _ in range(12):
            x = x - x.max(axis=1, keepdims=True) * 0.5
        return x

    exe = hloscope.jit(centred_again_and_again, threads=2, parallel_min_elements=1, library=False).compile(x)
    chains = chains_of(exe.report)
    sizes = [chains.count(c) for c in set(chains)]
    assert len(set(chains)) >= 2 and max(sizes) == row_chains.MAX_KERNELS
    np.testing.assert_allclose(exe(x), centred_again_and_again(x.astype(np.float64)), rtol=1e-4, atol=1e-4)
