"""Row programs (hloscope/backend/cpu/rows/): runs of row-wise instructions as programs of the
precompiled row interpreter. Every program computes what the evaluator does, at any split
into threads; the report names the program and its ops; what the interpreter cannot run
(or would run slower than generated code) stays generated."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import hloscope
from backend_helpers import NUMPY, assert_close, check_against_evaluator, compile_text, module, reducer
from hloscope.backend.cpu.fast.library import loader
from hloscope.backend.cpu.fast.rows import groups, storage
from hloscope.backend.cpu.fast.rows.ops import BINARY, COMMUTATIVE, UNARY

ROOT = Path(__file__).resolve().parents[2]
RNG = np.random.default_rng(11)
REDUCERS = reducer("max", "maximum", "f32") + reducer("add", "add", "f32")


def kinds(exe) -> list[str]:
    return [k.kind for k in exe.report.kernels]


def listing(exe) -> str:
    """The program listing the report carries (on the program's first instruction)."""
    return "\n".join(n for k in exe.report.kernels for n in k.notes if n.startswith("row program:"))


def softmax_text(rows: int, width: int, dtype: str = "f32", with_exponentials: bool = False) -> str:
    """A softmax over rows; `with_exponentials` returns its exponentials too."""
    t = lambda *ds: f"{dtype}[{','.join(map(str, ds))}]"  # noqa: E731
    also = f"t = ({t(rows, width)}, {t(rows, width)}) tuple(y, e)" if with_exponentials else ""
    return module(f"""
        x = {t(rows, width)} parameter(0)
        ninf = {dtype}[] constant(-inf)
        m = {t(rows)} reduce(x, ninf), dimensions={{1}}, to_apply=max
        mb = {t(rows, width)} broadcast(m), dimensions={{0}}
        d = {t(rows, width)} subtract(x, mb)
        e = {t(rows, width)} exponential(d)
        zero = {dtype}[] constant(0)
        s = {t(rows)} reduce(e, zero), dimensions={{1}}, to_apply=add
        sb = {t(rows, width)} broadcast(s), dimensions={{0}}
        y = {t(rows, width)} divide(e, sb)
        {also}
    """, reducer("max", "maximum", dtype) + reducer("add", "add", dtype))


def np_softmax(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def np_layernorm(x, g, b):
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + 1e-5) * g + b


@pytest.mark.hosts
@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("dtype", ["f32", "f64"])
@pytest.mark.parametrize("rows,width", [(64, 256), (37, 100), (5, 1000), (300, 64)])
def test_softmax_is_one_program_and_matches_the_evaluator(rows, width, dtype, threads):
    x = RNG.standard_normal((rows, width)).astype(NUMPY[dtype])
    exe = check_against_evaluator(softmax_text(rows, width, dtype), [x], rtol=1e-5, atol=1e-7, threads=threads,
                                  parallel_min_elements=1)
    assert kinds(exe) == ["row-program"] * 3 and len({k.llvm_function for k in exe.report.kernels}) == 1
    assert {k.partitions for k in exe.report.kernels} == {min(threads, rows)}
    assert "exp-minus-and-sum" in listing(exe)  # the max, one fused pass for exp and its sum, the division
    assert len(re.findall(r"^  \S", listing(exe), re.M)) == 3


@pytest.mark.hosts
def test_traced_layer_norm_fuses_its_variance_and_subtracts_the_mean_once():
    x = RNG.standard_normal((300, 128)).astype(np.float32)
    g, b = RNG.standard_normal(128).astype(np.float32), RNG.standard_normal(128).astype(np.float32)
    exe = hloscope.jit(np_layernorm, threads=2, parallel_min_elements=1).compile(x, g, b)
    assert set(kinds(exe)) == {"row-program"}
    text = listing(exe)
    assert "sum-of-products" in text and text.count("= subtract") == 1
    np.testing.assert_allclose(exe(x, g, b), np_layernorm(x.astype(np.float64), g, b), rtol=1e-4, atol=1e-4)


def rsqrt_layer_norm_text(rows: int, width: int, dtype: str = "f32", also_scaled: bool = False) -> str:
    """(x - mean) * rsqrt(var + eps) * g + b, as jax writes a layer norm; `also_scaled`
    returns the (x - mean) * rsqrt product too, so it has a reader besides the gain's multiply."""
    t = lambda *ds: f"{dtype}[{','.join(map(str, ds))}]"  # noqa: E731
    root = (f"r = ({t(rows, width)}, {t(rows, width)}) tuple(y, scaled)" if also_scaled else "")
    return module(f"""
        x = {t(rows, width)} parameter(0)
        g = {t(width)} parameter(1)
        b = {t(width)} parameter(2)
        zero = {dtype}[] constant(0)
        n = {dtype}[] constant({1 / width!r})
        eps = {dtype}[] constant(1e-05)
        s = {t(rows)} reduce(x, zero), dimensions={{1}}, to_apply=add
        nr = {t(rows)} broadcast(n), dimensions={{}}
        mean = {t(rows)} multiply(s, nr)
        mb = {t(rows, width)} broadcast(mean), dimensions={{0}}
        d = {t(rows, width)} subtract(x, mb)
        dd = {t(rows, width)} multiply(d, d)
        ss = {t(rows)} reduce(dd, zero), dimensions={{1}}, to_apply=add
        var = {t(rows)} multiply(ss, nr)
        er = {t(rows)} broadcast(eps), dimensions={{}}
        ve = {t(rows)} add(var, er)
        rstd = {t(rows)} rsqrt(ve)
        rb = {t(rows, width)} broadcast(rstd), dimensions={{0}}
        scaled = {t(rows, width)} multiply(d, rb)
        gb = {t(rows, width)} broadcast(g), dimensions={{1}}
        gained = {t(rows, width)} multiply(scaled, gb)
        bb = {t(rows, width)} broadcast(b), dimensions={{1}}
        y = {t(rows, width)} add(gained, bb)
        {root}
    """, reducer("add", "add", dtype))


def rows_summing_exactly(rows: int, width: int, dtype: str) -> np.ndarray:
    """Rows of eighths in [-8, 8] that sum to zero, so that a row's sum and its sum of squares
    (in 64ths, under 2**24 of them) are exact in every order: a reassociated sum gives the same
    bits at any vector width, and what two paths then compute differently is their own."""
    half = RNG.integers(-64, 65, size=(rows, width // 2))
    row = np.concatenate([half, -half, np.zeros((rows, width % 2), dtype=half.dtype)], axis=1)
    return RNG.permuted(row, axis=1).astype(NUMPY[dtype]) / 8


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("dtype", ["f32", "f64"])
@pytest.mark.parametrize("rows,width", [(64, 256), (37, 100), (3, 1000)])
@pytest.mark.hosts
def test_layer_norm_scales_and_shifts_in_one_pass_as_the_three_ops_would(rows, width, dtype, threads):
    """Its last multiply, multiply and add are one op, which rounds each as the ops did: the
    result equals the generated kernels' bit for bit. The rows' sums are exact in any order
    (rows_summing_exactly), since the interpreter's partial sums need not be the generated
    loops' (those follow the vector width); on other data the two agree within the rounding
    of a reassociated sum, which check_against_evaluator's bound covers."""
    text = rsqrt_layer_norm_text(rows, width, dtype)
    x = RNG.standard_normal((rows, width)).astype(NUMPY[dtype])
    g, b = (RNG.standard_normal(width).astype(NUMPY[dtype]) for _ in range(2))
    exe = check_against_evaluator(text, [x, g, b], rtol=1e-5, atol=1e-6, threads=threads, parallel_min_elements=1)
    assert set(kinds(exe)) == {"row-program"}
    program = listing(exe)
    assert re.search(r"\[r, :\] = scale-and-shift %v\d, %s\d, g\.?\d*\[:\], b\.?\d*\[:\]", program), program
    assert "= multiply %v" not in program and "= add %v" not in program
    generated = compile_text(text, threads=threads, parallel_min_elements=1, library=False)
    assert "row-program" not in kinds(generated)
    exact = rows_summing_exactly(rows, width, dtype)
    np.testing.assert_array_equal(exe(exact, g, b), generated(exact, g, b))


@pytest.mark.hosts
def test_a_scaled_value_with_another_reader_is_not_fused():
    text = rsqrt_layer_norm_text(40, 128, also_scaled=True)
    x = RNG.standard_normal((40, 128)).astype(np.float32)
    g, b = (RNG.standard_normal(128).astype(np.float32) for _ in range(2))
    exe = check_against_evaluator(text, [x, g, b], rtol=1e-5, atol=1e-6, threads=2, parallel_min_elements=1)
    assert set(kinds(exe)) == {"row-program"} and "scale-and-shift" not in listing(exe)


@pytest.mark.hosts
def test_rows_of_several_dimensions_as_in_attention():
    """softmax over the last axis of [batch, heads, query, key]: rows are the first three."""
    x = RNG.standard_normal((2, 3, 40, 96)).astype(np.float32)
    exe = hloscope.jit(lambda x: np_softmax(x * 0.125), threads=2, parallel_min_elements=1).compile(x)
    assert set(kinds(exe)) == {"row-program"}
    assert "row program: 240 rows of 96 f32" in listing(exe)
    np.testing.assert_allclose(exe(x), np_softmax(x.astype(np.float64) * 0.125), rtol=1e-5, atol=1e-7)


@pytest.mark.hosts
def test_a_row_of_two_minor_dimensions():
    text = module("""
        x = f32[48,8,16] parameter(0)
        zero = f32[] constant(0)
        s = f32[48] reduce(x, zero), dimensions={1,2}, to_apply=add
        sb = f32[48,8,16] broadcast(s), dimensions={0}
        y = f32[48,8,16] subtract(x, sb)
        q = f32[48,8,16] multiply(y, y)
        v = f32[48] reduce(q, zero), dimensions={1,2}, to_apply=add
        t = (f32[48], f32[48,8,16]) tuple(v, y)
    """, REDUCERS)
    x = RNG.standard_normal((48, 8, 16)).astype(np.float32)
    exe = check_against_evaluator(text, [x], rtol=1e-5, atol=1e-5)
    assert "row program: 48 rows of 128 f32" in listing(exe)


@pytest.mark.hosts
@pytest.mark.parametrize("dtype", ["f32", "f64"])
@pytest.mark.parametrize("op", UNARY)
def test_every_unary_op_on_vectors_and_on_row_values(op, dtype):
    """op(m + 1/2 - x) for the vectors, op(m) for the row values (m the row's max: exact in any
    order, and positive arguments, which every op takes)."""
    text = module(f"""
        x = {dtype}[40,96] parameter(0)
        ninf = {dtype}[] constant(-inf)
        m = {dtype}[40] reduce(x, ninf), dimensions={{1}}, to_apply=max
        half = {dtype}[] constant(0.5)
        h = {dtype}[40] add(m, {dtype}[40] broadcast(half), dimensions={{}})
        hb = {dtype}[40,96] broadcast(h), dimensions={{0}}
        d = {dtype}[40,96] subtract(hb, x)
        u = {dtype}[40,96] {op}(d)
        w = {dtype}[40] {op}(m)
        t = ({dtype}[40,96], {dtype}[40]) tuple(u, w)
    """, reducer("max", "maximum", dtype))
    x = RNG.standard_normal((40, 96)).astype(NUMPY[dtype])
    exe = check_against_evaluator(text, [x], rtol=2e-6 if dtype == "f32" else 1e-13, atol=0)
    assert set(kinds(exe)) == {"row-program"}


@pytest.mark.hosts
@pytest.mark.parametrize("dtype", ["f32", "f64"])
@pytest.mark.parametrize("op", BINARY)
def test_every_binary_op_in_every_case(op, dtype):
    """vector-vector, vector-value, value-vector and value-value, and with a column vector."""
    text = module(f"""
        x = {dtype}[40,96] parameter(0)
        g = {dtype}[96] parameter(1)
        ninf = {dtype}[] constant(-inf)
        s = {dtype}[40] reduce(x, ninf), dimensions={{1}}, to_apply=max
        sb = {dtype}[40,96] broadcast(s), dimensions={{0}}
        gb = {dtype}[40,96] broadcast(g), dimensions={{1}}
        vv = {dtype}[40,96] {op}(x, gb)
        vs = {dtype}[40,96] {op}(x, sb)
        sv = {dtype}[40,96] {op}(sb, x)
        ss = {dtype}[40] {op}(s, s)
        t = ({dtype}[40,96], {dtype}[40,96], {dtype}[40,96], {dtype}[40]) tuple(vv, vs, sv, ss)
    """, reducer("max", "maximum", dtype))
    x = RNG.standard_normal((40, 96)).astype(NUMPY[dtype])
    g = RNG.standard_normal(96).astype(NUMPY[dtype])
    exe = check_against_evaluator(text, [x, g], rtol=0, atol=0)  # one rounding each: exactly the evaluator's
    assert set(kinds(exe)) == {"row-program"}
    text = listing(exe)
    if op in COMMUTATIVE:  # the value-vector case runs as vector-value
        assert not re.search(rf"= {op} %s\d+, x", text)


@pytest.mark.hosts
def test_nan_and_infinities_go_where_the_evaluator_puts_them():
    x = RNG.standard_normal((16, 128)).astype(np.float32)
    x[1, 3], x[2, :], x[3, 5], x[4, 7] = np.nan, -np.inf, np.inf, -np.inf
    exe = compile_text(softmax_text(16, 128))
    want = hloscope.evaluate(hloscope.parse_hlo(softmax_text(16, 128)), x)
    np.testing.assert_allclose(exe(x), want, rtol=1e-6, atol=1e-7, equal_nan=True)
    assert kinds(exe) == ["row-program"] * 3


def test_a_result_read_after_the_program_is_written():
    """softmax's exponentials are returned too: the program writes them, else it keeps them in scratch."""
    text = softmax_text(64, 256, with_exponentials=True)
    x = RNG.standard_normal((64, 256)).astype(np.float32)
    exe = check_against_evaluator(text, [x], rtol=1e-6, atol=1e-7)
    assert set(kinds(exe)) == {"row-program"}
    internal = compile_text(softmax_text(64, 256))
    assert "[r, :] = exp" not in listing(internal) and "%v0, %s1 = exp-minus-and-sum" in listing(internal)


@pytest.mark.parametrize("why,options", [
    ("the library is off", {"library": False}),
    ("fast math", {"fast_math": True}),
    ("sums in order", {"reassociate_reductions": False}),
])
def test_options_the_interpreter_does_not_have_keep_generated_code(why, options):
    x = RNG.standard_normal((64, 256)).astype(np.float32)
    exe = check_against_evaluator(softmax_text(64, 256), [x], rtol=1e-5, atol=1e-6, **options)
    assert "row-program" not in kinds(exe), why


@pytest.mark.parametrize("why,body", [
    ("a sine: no op of the interpreter", """
        x = f32[64,256] parameter(0)
        zero = f32[] constant(0)
        s = f32[64] reduce(x, zero), dimensions={1}, to_apply=add
        sb = f32[64,256] broadcast(s), dimensions={0}
        y = f32[64,256] sine(sb)"""),
    ("a column reduction", """
        x = f32[64,256] parameter(0)
        zero = f32[] constant(0)
        s = f32[256] reduce(x, zero), dimensions={0}, to_apply=add
        sb = f32[64,256] broadcast(s), dimensions={1}
        y = f32[64,256] divide(x, sb)"""),
    ("the row max read at other rows", """
        x = f32[64,256] parameter(0)
        ninf = f32[] constant(-inf)
        m = f32[64] reduce(x, ninf), dimensions={1}, to_apply=max
        r = f32[64] reverse(m), dimensions={0}
        mb = f32[64,256] broadcast(r), dimensions={0}
        y = f32[64,256] subtract(x, mb)"""),
    ("rows of 8 over many rows", """
        x = f32[8192,8] parameter(0)
        ninf = f32[] constant(-inf)
        s = f32[8192] reduce(x, ninf), dimensions={1}, to_apply=max
        sb = f32[8192,8] broadcast(s), dimensions={0}
        y = f32[8192,8] divide(x, sb)"""),
    ("rows too wide for the scratch", """
        x = f32[4,65536] parameter(0)
        zero = f32[] constant(0)
        e = f32[4,65536] exponential(x)
        s = f32[4] reduce(e, zero), dimensions={1}, to_apply=add
        sb = f32[4,65536] broadcast(s), dimensions={0}
        y = f32[4,65536] divide(e, sb)"""),
])
def test_what_the_interpreter_should_not_run_is_generated(why, body):
    text = module(body, REDUCERS)
    shape = tuple(int(d) for d in re.search(r"x = f32\[([\d,]+)\]", body).group(1).split(","))  # pyright: ignore[reportOptionalMemberAccess]
    x = RNG.standard_normal(shape).astype(np.float32)
    exe = check_against_evaluator(text, [x], rtol=1e-5, atol=1e-5)
    assert "row-program" not in kinds(exe), why


def test_narrow_rows_of_a_small_program_are_one_program():
    """Few elements: it runs in microseconds either way, and compiles much faster."""
    assert 64 * 8 <= groups.SMALL
    x = RNG.standard_normal((64, 8)).astype(np.float32)
    exe = check_against_evaluator(softmax_text(64, 8), [x], rtol=1e-6, atol=1e-7)
    assert set(kinds(exe)) == {"row-program"}


def test_blocks_keep_to_the_scratch_bound():
    x = RNG.standard_normal((2000, 64)).astype(np.float32)
    exe = check_against_evaluator(softmax_text(2000, 64), [x], rtol=1e-6, atol=1e-7, threads=2,
                                  parallel_min_elements=1)
    found = re.search(r"(\d+) rows per block, \d+ ops, ([\d,]+) B of scratch", listing(exe))
    assert found is not None
    block, scratch = int(found.group(1)), int(found.group(2).replace(",", ""))
    assert block > 1 and scratch <= storage.SCRATCH_BYTES


def test_unfused_modules_overwrite_rows_in_place():
    """Without fusion every op is an instruction, and the memory plan puts results over values
    that die there (b over q, e over b): the program's rows of them stay in scratch."""
    text = module("""
        x = f32[128,256] parameter(0)
        q = f32[128,256] sine(x)
        zero = f32[] constant(0)
        s = f32[128] reduce(q, zero), dimensions={1}, to_apply=add
        sb = f32[128,256] broadcast(s), dimensions={0}
        b = f32[128,256] subtract(q, sb)
        e = f32[128,256] exponential(b)
        ninf = f32[] constant(-inf)
        m = f32[128] reduce(e, ninf), dimensions={1}, to_apply=max
        mb = f32[128,256] broadcast(m), dimensions={0}
        y = f32[128,256] divide(e, mb)
        t = (f32[128,256], f32[128,256]) tuple(y, e)
    """, REDUCERS)
    x = RNG.standard_normal((128, 256)).astype(np.float32)
    for pipeline in ("default", "simplify"):
        exe = check_against_evaluator(text, [x], rtol=1e-5, atol=1e-6, pipeline=pipeline, threads=2,
                                      parallel_min_elements=1)
        assert "row-program" in kinds(exe)
    shared = [k for k in exe.report.kernels if k.kind == "row-program" and len(set(k.buffers)) < len(k.buffers)]
    assert shared, "some instruction's result overwrites its operand"


def test_donated_outputs_are_written_after_their_member_reads_the_parameter():
    """A module whose result may take its parameter's array (input_output_alias): every other
    reader of the parameter runs before the instruction writing it, so the rows the program
    writes are rows it has read already."""
    text = ("HloModule m, input_output_alias={ {}: (0, {}, may-alias) }\n\n" + REDUCERS + """
ENTRY main {
  x = f32[64,256] parameter(0)
  ninf = f32[] constant(-inf)
  s = f32[64] reduce(x, ninf), dimensions={1}, to_apply=max
  sb = f32[64,256] broadcast(s), dimensions={0}
  d = f32[64,256] subtract(x, sb)
  e = f32[64,256] exponential(d)
  ROOT y = f32[64,256] multiply(e, x)
}
""")
    x = RNG.standard_normal((64, 256)).astype(np.float32)
    want = hloscope.evaluate(hloscope.parse_hlo(text), x)
    exe = compile_text(text)
    assert "row-program" in kinds(exe)
    donor = x.copy()
    got = exe.call_donating(donor)
    assert np.shares_memory(got, donor)
    assert_close(got, want, 1e-6, 1e-6)


def test_f64_programs_load_their_interpreter_when_first_needed():
    script = textwrap.dedent(f"""
        import sys, numpy as np
        sys.path.insert(0, {str(ROOT)!r})
        import hloscope
        from hloscope.backend.cpu.fast.library import loader
        text = {softmax_text(32, 128, "f32")!r}
        hloscope.compile(text, cache=False)(np.ones((32, 128), np.float32))
        print(loader.loaded("rows-f32"), loader.loaded("rows-f64"))
        exe = hloscope.compile(text.replace("f32", "f64"), cache=False)
        x = np.random.default_rng(0).standard_normal((32, 128))
        e = np.exp(x - x.max(1, keepdims=True))
        assert np.allclose(exe(x), e / e.sum(1, keepdims=True), rtol=1e-12)
        print(loader.loaded("rows-f64"))
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.split() == ["True", "False", "True"]


@pytest.mark.large
def test_disk_cache_in_a_new_process_loads_the_interpreter(tmp_path):
    (tmp_path / "m.hlo").write_text(softmax_text(64, 300))
    script = textwrap.dedent(f"""
        import sys, numpy as np
        sys.path.insert(0, {str(ROOT)!r})
        import hloscope
        exe = hloscope.compile(open({str(tmp_path / 'm.hlo')!r}).read(), cache_dir={str(tmp_path)!r})
        x = np.arange(64 * 300, dtype=np.float32).reshape(64, 300) / 1000
        e = np.exp(x - x.max(1, keepdims=True))
        assert np.allclose(exe(x), e / e.sum(1, keepdims=True), rtol=1e-5)
        print(exe.report.cache, sorted({{k.kind for k in exe.report.kernels}}),
              sorted({{k.llvm_function for k in exe.report.kernels}}))
    """)
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
            for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), [r.stderr[-2000:] for r in runs]
    assert runs[0].stdout.split()[0] == "miss" and runs[1].stdout.split()[0] == "disk"
    assert runs[0].stdout.split()[1:] == runs[1].stdout.split()[1:] and "'row-program']" in runs[1].stdout


def test_aot_objects_generate_their_row_kernels(tmp_path):
    exe = compile_text(softmax_text(64, 300))
    assert set(kinds(exe)) == {"row-program"}
    obj, _ = exe.save_aot(tmp_path, name="softmax")
    assert b"hloscope_row_program" not in obj.read_bytes()


def test_each_instruction_keeps_its_record_and_the_ir_tab_shows_the_program():
    from hloscope.viz.ir_text import ROW_PROGRAMS, available_views, view_html

    exe = compile_text(softmax_text(64, 256))
    records = exe.report.kernels
    assert len(records) == 3 and all(k.notes[0].startswith("runs in row program") for k in records)
    html = view_html(exe.report, "LLVM IR", records[1].name)
    assert "hloscope_row_program_f32" in html and "no function" not in html
    assert ROW_PROGRAMS in available_views(exe.report)
    listing = view_html(exe.report, ROW_PROGRAMS, records[2].name)
    assert "row program: 64 rows of 256 f32" in listing and "exp-minus-and-sum" in listing
    assert ROW_PROGRAMS not in available_views(compile_text(softmax_text(64, 256), library=False).report)
    assert loader.loaded("rows-f32")
