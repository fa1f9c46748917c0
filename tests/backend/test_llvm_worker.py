"""LLVM in a child process: the same code as in this process, and a crash, a hang or a
failure of LLVM becomes a clear error instead of ending the Python process."""

from __future__ import annotations

import numpy as np
import pytest
from backend_helpers import module

import hloscope
from hloscope.backend.cpu.options import CpuOptions
from hloscope.backend.cpu.llvm_target import llvm_target
from hloscope.backend.llvm_worker import LlvmError, LlvmWorker

TEXT = module("p = f32[4096] parameter(0)\nq = f32[4096] exponential(p)\nr = f32[4096] add(p, q)")
TARGET = llvm_target(CpuOptions())


@pytest.fixture(scope="module")
def llvm_ir() -> str:
    return hloscope.compile(TEXT, cache=False).report.llvm_ir


@pytest.fixture
def worker():
    w = LlvmWorker()
    yield w
    w.close()


def test_the_child_makes_the_code_this_process_makes(worker, llvm_ir):
    here = LlvmWorker(in_process=True)
    (_, text_there), (_, text_here) = worker.optimize(llvm_ir, TARGET), here.optimize(llvm_ir, TARGET)
    assert text_there == text_here and " x float>" in text_there  # vectorized, the same way
    handle_there, _ = worker.optimize(llvm_ir, TARGET)
    handle_here, _ = here.optimize(llvm_ir, TARGET)
    assert worker.object(handle_there) == here.object(handle_here)  # byte for byte


def test_invalid_ir_is_an_error_and_the_child_goes_on(worker, llvm_ir):
    with pytest.raises(LlvmError, match="LLVM failed while optimizing"):
        worker.optimize("define void @f() { ret i32 0 }", TARGET)
    handle, _ = worker.optimize(llvm_ir, TARGET)
    assert worker.object(handle)[:4] in (b"\x7fELF", b"\xcf\xfa\xed\xfe")
    assert worker.children == 1  # the same child answered both


def test_a_child_that_dies_mid_request_is_an_error_then_replaced(worker, llvm_ir, monkeypatch):
    from hloscope.backend import llvm_worker

    def garbage(stream, message):  # a request the child cannot read: it dies, as on an LLVM abort
        stream.write(b"\x05\x00\x00\x00\x00\x00\x00\x00junk!")
        stream.flush()

    with monkeypatch.context() as m:
        m.setattr(llvm_worker.llvm_child, "write_message", garbage)
        with pytest.raises(LlvmError, match=r"LLVM stopped while optimizing: the LLVM process ended \(exit status 1\)"):
            worker.optimize(llvm_ir, TARGET)
    handle, text = worker.optimize(llvm_ir, TARGET)
    assert "define" in text and worker.object(handle) and worker.children == 2


def test_a_child_that_died_between_requests_is_replaced_quietly(worker, llvm_ir):
    worker.start()
    assert worker._proc is not None
    worker._proc.kill()
    worker._proc.wait()
    handle, _ = worker.optimize(llvm_ir, TARGET)
    assert worker.object(handle) and worker.children == 2


def test_a_request_past_its_time_stops_the_child(llvm_ir):
    slow = LlvmWorker(timeout=1e-4)
    try:
        with pytest.raises(LlvmError, match="no answer after"):
            slow.optimize(llvm_ir, TARGET)
        assert slow._proc is None  # killed, not left running
    finally:
        slow.close()


def test_the_child_is_replaced_after_its_share_of_work(llvm_ir):
    w = LlvmWorker(recycle_after=2)
    try:
        for _ in range(5):
            handle, _ = w.optimize(llvm_ir, TARGET)
            w.object(handle)
        assert w.children == 3  # a fresh child every two optimizations: what LLVM leaks goes with it
    finally:
        w.close()


def test_compiles_through_the_worker_are_correct():
    x = np.linspace(-3, 3, 4096).astype(np.float32)
    exe = hloscope.compile(TEXT, cache=False)
    np.testing.assert_allclose(exe(x), x + np.exp(x), rtol=1e-6, atol=1e-6)
    gpu = hloscope.compile(TEXT, backend="gpu", ptxas=False)
    assert ".entry" in gpu.report.ptx and gpu.report.kernels[0].optimized_llvm_ir
