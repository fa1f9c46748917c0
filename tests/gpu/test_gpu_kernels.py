"""The kernels' shapes: grid-stride loops, row reductions with shuffles and shared memory,
tiled dots with shared memory and barriers, and the launch configurations they report."""

import re

import pytest

from gpu_helpers import compile_gpu, corpus_case, module, reducer

ROW_SUM = module("""
    x = f32[64,1000] parameter(0)
    zero = f32[] constant(0)
    r = f32[64] reduce(x, zero), dimensions={1}, to_apply=add
""", reducer("add", "add", "f32"))

COLUMN_SUM = module("""
    x = f32[1000,64] parameter(0)
    zero = f32[] constant(0)
    r = f32[64] reduce(x, zero), dimensions={0}, to_apply=add
""", reducer("add", "add", "f32"))

DOT = module("""
    a = f32[4,100,70] parameter(0)
    b = f32[4,70,50] parameter(1)
    d = f32[4,100,50] dot(a, b), lhs_batch_dims={0}, rhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_contracting_dims={1}
""")


def _ptx_of(report, kernel) -> str:
    """The PTX of one `.entry` (up to the next one)."""
    start = report.ptx.index(f".entry {kernel}(")
    end = report.ptx.find(".entry ", start + 1)
    return report.ptx[start:] if end < 0 else report.ptx[start:end]


def test_elementwise_kernel_is_a_grid_stride_loop():
    text, *_ = corpus_case("unary_chain")
    report = compile_gpu(text, ptxas=False).report
    (kernel,) = report.kernels
    assert kernel.kind == "loop" and kernel.block == (256, 1, 1)
    assert kernel.grid[0] * 256 >= kernel.extent > 0
    for sreg in ("tid.x", "ctaid.x", "ntid.x", "nctaid.x"):
        assert f"llvm.nvvm.read.ptx.sreg.{sreg}" in kernel.llvm_ir
        assert f"%{sreg}" in _ptx_of(report, kernel.name)


def test_huge_elementwise_grid_is_capped_and_strides():
    text = module("x = f32[16384,8192] parameter(0)\ne = f32[16384,8192] exponential(x)")
    (kernel,) = compile_gpu(text, ptxas=False).report.kernels
    assert kernel.grid[0] < 16384 * 8192 // 256  # fewer threads than elements: the loop strides


def test_row_reduction_uses_shuffles_and_shared_memory():
    report = compile_gpu(ROW_SUM, ptxas=False).report
    (kernel,) = report.kernels
    assert kernel.kind == "row-reduce"
    assert kernel.grid == (64, 1, 1) and kernel.block == (256, 1, 1)
    assert kernel.shared_bytes == 8 * 4  # one f32 partial per warp
    ptx = _ptx_of(report, kernel.name)
    assert "shfl.sync.bfly.b32" in ptx
    assert "st.shared" in ptx and "ld.shared" in ptx and "bar.sync" in ptx


def test_short_rows_use_the_generic_fallback():
    text = module("""
        x = f32[4096,8] parameter(0)
        zero = f32[] constant(0)
        r = f32[4096] reduce(x, zero), dimensions={1}, to_apply=add
    """, reducer("add", "add", "f32"))
    (kernel,) = compile_gpu(text, ptxas=False).report.kernels
    assert kernel.kind == "reduce-loop" and kernel.block == (256, 1, 1)


def test_column_reduction_is_a_thread_per_column_with_the_rows_split():
    """64 columns are 64 threads: too few, so the 1000 rows are split into chunks of at
    least 32 (blockIdx.y) and a second kernel combines each column's partials."""
    partials, combine = compile_gpu(COLUMN_SUM, ptxas=False).report.kernels
    assert partials.kind == combine.kind == "column-reduce"
    assert partials.block == combine.block == (64, 1, 1)
    assert partials.grid == (1, 31, 1) and combine.grid == (1, 1, 1)
    for kernel in (partials, combine):  # threads never wait for each other
        assert "shfl" not in kernel.llvm_ir and "barrier" not in kernel.llvm_ir


def test_small_rows_get_a_smaller_block():
    text = module("""
        x = f32[16,100] parameter(0)
        zero = f32[] constant(0)
        r = f32[16] reduce(x, zero), dimensions={1}, to_apply=add
    """, reducer("add", "add", "f32"))
    (kernel,) = compile_gpu(text, ptxas=False).report.kernels
    assert kernel.kind == "row-reduce" and kernel.block == (64, 1, 1)  # a power of two <= 100


def test_variadic_row_reduction_shuffles_every_accumulator():
    text, *_ = corpus_case("argmax_rows")
    report = compile_gpu(text, ptxas=False).report
    (kernel,) = [k for k in report.kernels if k.kind == "row-reduce"]
    assert _ptx_of(report, kernel.name).count("shfl.sync.bfly.b32") >= 10  # value and index, 5 steps each


def test_dot_kernel_tiles_in_shared_memory_with_barriers():
    report = compile_gpu(DOT, ptxas=False).report
    (kernel,) = report.kernels
    assert kernel.kind == "dot-tiled"
    assert kernel.block == (16, 16, 1)
    assert kernel.grid == (4, 7, 4)  # ceil(50/16) column tiles, ceil(100/16) row tiles, 4 batches
    assert kernel.shared_bytes == 2 * 16 * 16 * 4
    assert "llvm.nvvm.barrier0" in kernel.llvm_ir and "addrspace(3)" in kernel.llvm_ir
    ptx = _ptx_of(report, kernel.name)
    assert ".shared" in ptx and "bar.sync" in ptx and "%ctaid.z" in ptx
    assert "ld.shared" in ptx and "st.shared" in ptx


def test_fused_dot_gets_its_own_tiled_kernel_first():
    text, *_ = corpus_case("gelu_mlp")
    kinds = [k.kind for k in compile_gpu(text, ptxas=False).report.kernels]
    assert kinds.count("dot-tiled") == 2 and kinds[0] == "dot-tiled"


def test_kernels_read_global_memory_through_global_pointers():
    report = compile_gpu(ROW_SUM, ptxas=False).report
    (kernel,) = report.kernels
    assert "addrspacecast ptr %" in kernel.llvm_ir and "ptr addrspace(1)" in kernel.llvm_ir
    assert "ld.global" in _ptx_of(report, kernel.name)


def test_kernels_are_marked_as_entries():
    (kernel,) = compile_gpu(ROW_SUM, ptxas=False).report.kernels
    assert re.search(r"define ptx_kernel void @", kernel.llvm_ir)


def test_kernel_names_are_valid_ptx_identifiers():
    text = module("""
        x.1 = f32[100] parameter(0)
        y.2 = f32[100] negate(x.1)
        e.3 = f32[100] exponential(y.2)
    """)
    report = compile_gpu(text, pipeline="none", ptxas=False).report
    for k in report.kernels:
        assert re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", k.name)
        assert f".entry {k.name}(" in report.ptx


@pytest.mark.parametrize("dtype", ["f16", "bf16", "f64", "s8", "u64", "pred"])
def test_row_reduction_of_every_width(dtype):
    op = "or" if dtype == "pred" else "add"
    init = "false" if dtype == "pred" else "0"
    text = module(f"""
        x = {dtype}[8,300] parameter(0)
        zero = {dtype}[] constant({init})
        s = {dtype}[8] reduce(x, zero), dimensions={{1}}, to_apply=r
    """, reducer("r", op, dtype))
    (kernel,) = compile_gpu(text, ptxas=False).report.kernels
    assert kernel.kind == "row-reduce"


def test_kernels_carry_their_launch_bound():
    """ptxas must not use more registers per thread than the launched block can hold."""
    report = compile_gpu(DOT, ptxas=False).report
    assert ".maxntid 16, 16, 1" in _ptx_of(report, report.kernels[0].name)
    text, *_ = corpus_case("unary_chain")
    report = compile_gpu(text, block_size=1024, ptxas=False).report
    assert ".maxntid 1024, 1, 1" in report.ptx
