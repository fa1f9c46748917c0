"""The CUDA driver path, against a fake `cuda.bindings.driver` that keeps memory on the host.

It cannot run PTX, but it checks what hloscope asks of the driver: the call sequence and
argument shapes of cuda-python (every call returns (CUresult, values...)), the kernelParams
array (addresses of slots holding device pointers), the launch configurations in schedule
order, the copies in and out, and the wording of driver errors.
"""

import ctypes
import enum
import re

import numpy as np
import pytest

from hloscope.backend.gpu import cuda as gpu_driver
from hloscope.backend.gpu.cuda import CudaDevice
from gpu_helpers import compile_gpu, corpus_case, module


class CUresult(enum.IntEnum):
    CUDA_SUCCESS = 0
    CUDA_ERROR_ILLEGAL_ADDRESS = 700


class CUdevice_attribute(enum.IntEnum):
    CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE = 36
    CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH = 37
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76


class FakeDriver:
    CUresult = CUresult
    CUdevice_attribute = CUdevice_attribute
    OK = CUresult.CUDA_SUCCESS

    def __init__(self):
        self.memory, self.launches, self.modules, self.fail_launch = {}, [], [], False
        self.device_copies = []

    def cuInit(self, flags): return (self.OK,)
    def cuDeviceGetCount(self): return (self.OK, 1)
    def cuDeviceGet(self, i): return (self.OK, 0)
    def cuDevicePrimaryCtxRetain(self, dev): return (self.OK, "context")
    def cuCtxSetCurrent(self, ctx): return (self.OK,)
    def cuDeviceGetName(self, n, dev): return (self.OK, b"Fake GPU" + b"\0" * (n - 8))
    def cuCtxSynchronize(self): return (self.OK,)

    def cuDeviceGetAttribute(self, attr, dev):
        values = {36: 3_201_000, 37: 6144, 75: 9, 76: 0}
        return (self.OK, values[int(attr)])

    def cuMemAlloc(self, n):
        raw = np.zeros(n + 256, np.uint8)
        address = raw.ctypes.data + (-raw.ctypes.data % 256)
        self.memory[address] = raw
        return (self.OK, address)

    def cuMemFree(self, p): return (self.OK,)

    def cuMemcpyHtoD(self, dst, src, n):
        assert isinstance(dst, int) and isinstance(src, int)
        ctypes.memmove(dst, src, n)
        return (self.OK,)

    def cuMemcpyDtoH(self, dst, src, n):
        ctypes.memmove(dst, src, n)
        return (self.OK,)

    def cuMemcpyDtoD(self, dst, src, n):
        assert isinstance(dst, int) and isinstance(src, int) and (dst + n <= src or src + n <= dst)
        ctypes.memmove(dst, src, n)
        self.device_copies.append((dst, src, n))
        return (self.OK,)

    def cuModuleLoadData(self, image):
        ptx = ctypes.string_at(image).decode()  # a NUL-terminated string at an address
        self.modules.append(ptx)
        return (self.OK, len(self.modules) - 1)

    def cuModuleGetFunction(self, module, name):
        assert isinstance(name, bytes)
        ptx = self.modules[module]
        params = re.search(rf"\.entry {name.decode()}\((.*?)\)", ptx, re.S)
        assert params, f"no .entry {name}"
        return (self.OK, (name.decode(), params.group(1).count(".param")))

    def cuLaunchKernel(self, f, gx, gy, gz, bx, by, bz, shared, stream, params, extra):
        name, count = f
        slots = (ctypes.c_void_p * count).from_address(params)
        pointers = [ctypes.c_uint64.from_address(slots[i]).value for i in range(count)]
        self.launches.append((name, (gx, gy, gz), (bx, by, bz), shared, pointers))
        return (CUresult.CUDA_ERROR_ILLEGAL_ADDRESS if self.fail_launch else self.OK,)

    def cuGetErrorName(self, err): return (self.OK, CUresult(err).name.encode())
    def cuGetErrorString(self, err): return (self.OK, b"an illegal memory access was encountered")
    def cuEventCreate(self, flags): return (self.OK, object())
    def cuEventRecord(self, event, stream): return (self.OK,)
    def cuEventSynchronize(self, event): return (self.OK,)
    def cuEventElapsedTime(self, start, end): return (self.OK, 2.0)
    def cuEventDestroy(self, event): return (self.OK,)


@pytest.fixture
def fake(monkeypatch):
    driver = FakeDriver()
    monkeypatch.setattr(gpu_driver, "bindings", lambda: driver)
    monkeypatch.setattr(CudaDevice, "_instance", None)
    yield driver
    CudaDevice._instance = None


def test_device_facts(fake):
    device = CudaDevice.get()
    assert device.name == "Fake GPU" and device.compute_capability == (9, 0)
    assert device.peak_bandwidth() == pytest.approx(2 * 3.201e9 * 768)
    assert gpu_driver.gpu_available() == (True, "Fake GPU")


def test_launches_follow_the_schedule_with_arena_pointers(fake):
    text, args, *_ = corpus_case("softmax")
    exe = compile_gpu(text, ptxas=False)
    out = exe(*args)
    assert out.shape == (128, 256) and out.dtype == np.float32
    launches = fake.launches
    assert [name for name, *_ in launches] == [k.name for k in exe.report.kernels]
    base = next(iter(fake.memory))
    for (name, grid, block, shared, pointers), info in zip(launches, exe.report.kernels):
        assert grid == info.grid and block == info.block and shared == 0
        assert all(base <= p < base + exe.arena.size for p in pointers)
        assert len(set(pointers)) == len(pointers)
    assert launches[0][4][0] == base + exe.arena.params[0]  # the first kernel reads parameter 0


def test_values_travel_through_device_memory(fake):
    """No kernel here: a parameter and a constant returned as they are, copied on the host,
    and a transpose whose input must have been uploaded (its launch sees the bytes)."""
    text = module("""
        x = f32[3,4] parameter(0)
        c = s32[2] constant({7, 9})
        t = (f32[3,4], s32[2]) tuple(x, c)
    """)
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    got_x, got_c = compile_gpu(text, ptxas=False)(x)
    np.testing.assert_array_equal(got_x, x)
    np.testing.assert_array_equal(got_c, [7, 9])
    assert fake.launches == []


def test_uploads_land_where_kernels_look(fake):
    text = module("x = f32[64] parameter(0)\ny = f32[64] negate(x)")
    x = np.linspace(0, 1, 64, dtype=np.float32)
    exe = compile_gpu(text, ptxas=False)
    exe(x)
    (name, grid, block, shared, pointers), = fake.launches
    seen = np.frombuffer(ctypes.string_at(pointers[0], x.nbytes), np.float32)
    np.testing.assert_array_equal(seen, x)


def test_driver_errors_name_the_cuda_error(fake):
    fake.fail_launch = True
    text = module("x = f32[64] parameter(0)\ny = f32[64] negate(x)")
    with pytest.raises(RuntimeError, match="CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access"):
        compile_gpu(text, ptxas=False)(np.zeros(64, np.float32))


def test_profile_uses_events(fake):
    text, args, *_ = corpus_case("softmax")
    exe = compile_gpu(text, ptxas=False)
    times = exe.profile(*args, repeat=4)
    assert [name for name, _ in times] == [k.name for k in exe.report.kernels]
    assert all(ms == pytest.approx(0.5) for _, ms in times)  # 2 ms for 4 launches


BRANCHES = """
neg {
  p = f32[64] parameter(0)
  ROOT n = f32[64] negate(p)
}
abs {
  p = f32[64] parameter(0)
  ROOT a = f32[64] abs(p)
}
"""


@pytest.mark.parametrize("pred,branch", [(True, 0), (False, 1)])
def test_conditional_launches_only_the_chosen_branch(fake, pred, branch):
    """The host reads the predicate (an uploaded parameter here) back from the device and
    launches the kernels of that branch alone."""
    text = module("""
        c = pred[] parameter(0)
        x = f32[64] parameter(1)
        r = f32[64] conditional(c, x, x), true_computation=neg, false_computation=abs
    """, BRANCHES)
    exe = compile_gpu(text, ptxas=False)
    exe(np.array(pred), np.ones(64, np.float32))
    (name, *_), = fake.launches
    assert name == exe.report.kernels[branch].name


def test_while_reads_its_predicate_and_copies_its_state_on_the_device(fake):
    """The fake runs no kernel, so the predicate stays 0 (device memory starts zeroed): the
    host runs the condition once, reads false and stops; the state came in by device copy."""
    text = module("""
        x = f32[32] parameter(0)
        zero = s32[] constant(0)
        init = (s32[], f32[32]) tuple(zero, x)
        w = (s32[], f32[32]) while(init), condition=cond, body=body
        r = f32[32] get-tuple-element(w), index=1
    """, LOOP)
    exe = compile_gpu(text, ptxas=False)
    exe(np.ones(32, np.float32))
    assert [name for name, *_ in fake.launches] == [exe.report.kernel("lt").name]
    assert any(n == 32 * 4 for _, _, n in fake.device_copies)


def test_device_copy_is_cuMemcpyDtoD(fake):
    device = CudaDevice.get()
    base = device.alloc(64)
    device.upload(base, np.arange(8, dtype=np.uint8))
    device.copy(base + 32, base, 8)
    assert fake.device_copies == [(base + 32, base, 8)]
    got = np.empty(8, np.uint8)
    device.download(got, base + 32)
    np.testing.assert_array_equal(got, np.arange(8))


LOOP = """
cond {
  s = (s32[], f32[32]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  n = s32[] constant(3)
  ROOT lt = pred[] compare(i, n), direction=LT
}
body {
  s = (s32[], f32[32]) parameter(0)
  i = s32[] get-tuple-element(s), index=0
  v = f32[32] get-tuple-element(s), index=1
  one = s32[] constant(1)
  j = s32[] add(i, one)
  w = f32[32] add(v, v)
  ROOT t = (s32[], f32[32]) tuple(j, w)
}
"""
