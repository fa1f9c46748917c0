"""Running GPU executables: a clear error without a GPU; the corpus on a real one."""

import numpy as np
import pytest

from hloscope.errors import NotSupportedError
from hloscope.backend.gpu.cuda import NO_GPU, gpu_available
from hloscope.backend.gpu.executable import DeviceArena, DeviceProgram
from hloscope.backend.buffers import ArrayStorage
from hloscope.ir.shape import ArrayShape
from gpu_helpers import assert_matches, compile_gpu, corpus_case, corpus_cases

HAVE_GPU, WHY_NOT = gpu_available()


def needs_gpu(test):
    """A test that runs kernels on an NVIDIA GPU (marked gpu; skipped, saying why, without one)."""
    return pytest.mark.gpu(pytest.mark.skipif(not HAVE_GPU, reason=WHY_NOT)(test))


@pytest.mark.skipif(HAVE_GPU, reason="an NVIDIA GPU is available here")
def test_call_without_gpu_raises_a_clear_error():
    text, args, *_ = corpus_case("softmax")
    exe = compile_gpu(text, ptxas=False)
    assert ".entry" in exe.report.ptx  # the PTX is there all the same
    with pytest.raises(NotSupportedError, match="no NVIDIA GPU available: this executable can show its PTX but not run"):
        exe(*args)


def test_availability_reason_is_plain():
    ok, why = gpu_available()
    assert ok or why.startswith(NO_GPU)


def test_device_arena_regions_are_aligned_and_disjoint():
    f32 = ArrayShape("f32", (10,))
    params = (ArrayStorage("param", 0, 40, "p0", f32), ArrayStorage("param", 1, 40, "p1", f32))
    outputs = (ArrayStorage("output", 0, 40, "r", f32),)
    arena = DeviceArena(DeviceProgram((), 1000, params, outputs, (), {}))
    starts = [arena.offset(b) for b in params + outputs]
    assert starts == [1024, 1280, 1536] and arena.size == 1792
    assert arena.offset(ArrayStorage("arena", 64, 40, "t", f32)) == 64
    with pytest.raises(ValueError):
        arena.offset(ArrayStorage("constant", 0, 40, "c", f32))


@needs_gpu
@pytest.mark.parametrize("name", corpus_cases("core") + corpus_cases("stretch"))
def test_corpus_case_on_the_gpu(name):
    text, args, outs, case = corpus_case(name)
    assert_matches(compile_gpu(text)(*args), outs, case)


@needs_gpu
@pytest.mark.parametrize("name", corpus_cases("core") + corpus_cases("stretch"))
def test_corpus_case_unfused_on_the_gpu(name):
    text, args, outs, case = corpus_case(name)
    assert_matches(compile_gpu(text, pipeline="none")(*args), outs, case)


@needs_gpu
def test_repeated_calls_reuse_the_loaded_module():
    text, args, outs, case = corpus_case("layernorm")
    exe = compile_gpu(text)
    for _ in range(3):
        assert_matches(exe(*args), outs, case)
    assert exe.device.name


@needs_gpu
def test_wrong_arguments_are_refused_before_the_device_sees_them():
    from hloscope.errors import EvaluationError

    text, args, *_ = corpus_case("softmax")
    with pytest.raises(EvaluationError):
        compile_gpu(text)(np.zeros((3, 3), np.float32))
