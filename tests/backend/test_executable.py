"""The Executable: argument checks before the native call, fresh results, thread safety."""

import threading

import numpy as np
import pytest

import hloscope
from backend_helpers import compile_text, module

ADD = module("a = f32[3,4] parameter(0)\nb = f32[3,4] parameter(1)\nr = f32[3,4] add(a, b)")
TUPLE = module("a = f32[5] parameter(0)\ne = f32[5] exponential(a)\nn = f32[5] negate(a)\nt = (f32[5], (f32[5], f32[5])) tuple(e, (f32[5], f32[5]) tuple(n, a))".replace(
    "t = (f32[5], (f32[5], f32[5])) tuple(e, (f32[5], f32[5]) tuple(n, a))", "i = (f32[5], f32[5]) tuple(n, a)\nt = (f32[5], (f32[5], f32[5])) tuple(e, i)"))


@pytest.fixture(scope="module")
def add():
    return compile_text(ADD)


def ones(*dims, dtype=np.float32):
    return np.ones(dims, dtype)


def test_call(add):
    np.testing.assert_array_equal(add(ones(3, 4), ones(3, 4)), np.full((3, 4), 2, np.float32))


@pytest.mark.parametrize("args,needle", [
    ((ones(3, 4),), "expected 2 argument(s)"),
    ((ones(3, 4), ones(3, 4), ones(3, 4)), "expected 2 argument(s)"),
    ((ones(3, 4), ones(4, 3)), "argument 1 (b): expected shape [3, 4]"),
    ((ones(3, 4), ones(12)), "got shape [12]"),
    ((ones(3, 4, dtype=np.float64), ones(3, 4)), "argument 0 (a): expected dtype float32"),
    ((ones(3, 4), ones(3, 4, dtype=np.int32)), "got dtype int32"),
    ((ones(3, 4), 1.0), "Python numbers"),
    ((ones(3, 4), [[1.0] * 4] * 3), "float64"),
])
def test_bad_arguments_are_errors_not_crashes(add, args, needle):
    with pytest.raises(hloscope.EvaluationError, match=needle.replace("[", r"\[").replace("(", r"\(").replace(")", r"\)")):
        add(*args)


def test_big_endian_is_a_dtype_error(add):
    with pytest.raises(hloscope.EvaluationError):
        add(ones(3, 4), ones(3, 4).astype(">f4"))


def test_non_contiguous_and_read_only_inputs(add):
    a = np.arange(24, dtype=np.float32).reshape(4, 6)[:3, :4]  # a strided view
    b = np.arange(12, dtype=np.float32).reshape(4, 3).T  # Fortran order
    b.flags.writeable = False
    assert not a.flags.c_contiguous and not b.flags.c_contiguous
    np.testing.assert_array_equal(add(a, b), a + b)
    assert not b.flags.writeable


def test_results_are_fresh_arrays(add):
    a, b = ones(3, 4), ones(3, 4)
    r1, r2 = add(a, b), add(a, b)
    assert r1 is not a and r1 is not b and not np.shares_memory(r1, r2)
    assert r1.flags.writeable and r1.flags.c_contiguous
    r1[...] = 7
    np.testing.assert_array_equal(add(a, b), np.full((3, 4), 2, np.float32))


def test_nested_tuple_result_and_returned_parameter():
    x = np.linspace(-1, 1, 5).astype(np.float32)
    e, (n, a) = compile_text(TUPLE)(x)
    np.testing.assert_allclose(e, np.exp(x), rtol=1e-6)
    np.testing.assert_array_equal(n, -x)
    np.testing.assert_array_equal(a, x)
    assert not np.shares_memory(a, x)  # the parameter is copied into a fresh result


def test_scalar_arguments():
    exe = compile_text(module("a = f32[] parameter(0)\nb = f32[] parameter(1)\nr = f32[] multiply(a, b)"))
    assert exe(np.float32(3), np.array(4, np.float32)) == 12


def test_many_threads_call_one_executable():
    exe = compile_text(module("""
        p = f32[64,257] parameter(0)
        s = f32[64,257] sine(p)
        r = f32[64,257] multiply(s, p)
    """))
    inputs = [np.random.default_rng(i).standard_normal((64, 257)).astype(np.float32) for i in range(8)]
    expected = [exe(x) for x in inputs]
    errors = []

    def work(i):
        for _ in range(20):
            if not np.array_equal(exe(inputs[i]), expected[i]):
                errors.append(i)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


def test_parallel_partitions_are_reported_and_correct():
    exe = compile_text(module("p = f32[512,600] parameter(0)\nr = f32[512,600] exponential(p)"),
                       threads=4, parallel_min_elements=1000)
    (kernel,) = exe.report.kernels
    assert kernel.partitions == 4 and exe.report.partitions() == {kernel.name: 4}
    x = np.random.default_rng(0).standard_normal((512, 600)).astype(np.float32)
    np.testing.assert_allclose(exe(x), np.exp(x), rtol=1e-6)
    single = compile_text(module("p = f32[512,600] parameter(0)\nr = f32[512,600] exponential(p)"), threads=1)
    assert single.report.kernels[0].partitions == 1
    np.testing.assert_array_equal(single(x), exe(x))


def test_threads_share_the_pool_safely():
    """Several Python threads run a partitioned program at once: one uses the pool, the
    others find it busy and run their partitions themselves; all results are right."""
    exe = compile_text(module("p = f32[256,300] parameter(0)\nr = f32[256,300] tanh(p)"),
                       threads=2, parallel_min_elements=1000)
    assert exe.report.kernels[0].partitions == 2
    inputs = [np.random.default_rng(i).standard_normal((256, 300)).astype(np.float32) for i in range(6)]
    expected = [np.tanh(x) for x in inputs]
    errors = []

    def work(i):
        for _ in range(30):
            if not np.allclose(exe(inputs[i]), expected[i], rtol=1e-5, atol=1e-6):
                errors.append(i)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
