"""The CUDA driver API, through NVIDIA's Python bindings (`pip install 'hloscope[gpu]'`).

Only what running compiled kernels needs, and the same calls a CUDA C program makes:

    cuInit, cuDeviceGet, cuDevicePrimaryCtxRetain   a context on device 0
    cuModuleLoadData, cuModuleGetFunction           load the PTX (the driver JIT-compiles it
                                                    for the GPU at hand) and find each kernel
    cuMemAlloc, cuMemcpyHtoD/DtoH/DtoD              device memory and copies
    cuLaunchKernel, cuCtxSynchronize                launches, in order, on the default stream
    cuEventCreate/Record/ElapsedTime                kernel timing (benchmarks/gpu_bench.py)

`CudaDevice.get()` raises NotSupportedError saying exactly what is missing (the bindings,
the driver, a device), so an executable can always show its PTX and explain why it cannot
run. Every driver error becomes a RuntimeError with CUDA's own name and description.
"""

from __future__ import annotations

import ctypes
import threading
from importlib import import_module
from types import ModuleType
from typing import Any

import numpy as np

from ...errors import NotSupportedError

NO_GPU = "no NVIDIA GPU available: this executable can show its PTX but not run"


def bindings() -> ModuleType:
    """The driver module of cuda-python (cuda.bindings.driver, or cuda.cuda before 12.6).
    Imported by name: the bindings are optional and untyped, so the type checker need not find them."""
    try:
        return import_module("cuda.bindings.driver")
    except ImportError:
        try:
            return import_module("cuda.cuda")
        except ImportError:
            raise NotSupportedError(
                f"{NO_GPU} (the CUDA Python bindings are not installed: pip install 'hloscope[gpu]')"
            ) from None


def check(result) -> Any:
    """The values a driver call returned after its CUresult, or RuntimeError (Any: each
    call returns its own kinds of handles and numbers, and the bindings are untyped)."""
    err, rest = (result[0], result[1:]) if isinstance(result, tuple) else (result, ())
    code = int(getattr(err, "value", err))
    if code != 0:
        raise RuntimeError(f"CUDA driver error {code} ({_error_text(err)})")
    return rest[0] if len(rest) == 1 else rest


def _error_text(err) -> str:
    try:
        driver = bindings()
        name = driver.cuGetErrorName(err)[1]
        text = driver.cuGetErrorString(err)[1]
        return f"{name.decode() if name else err}: {text.decode() if text else ''}"
    except Exception:  # the error text is a courtesy; never hide the original error
        return str(err)


class CudaDevice:
    """Device 0's primary context and the driver calls made in it."""

    _instance: "CudaDevice | None" = None
    _lock = threading.Lock()

    @classmethod
    def get(cls) -> "CudaDevice":
        """The process's device, created on first use; NotSupportedError if there is none."""
        with cls._lock:
            if cls._instance is None:
                cls._instance = cls(bindings())
            return cls._instance

    def __init__(self, driver):
        self.driver = driver
        try:
            check(driver.cuInit(0))
            count = check(driver.cuDeviceGetCount())
        except RuntimeError as e:
            raise NotSupportedError(f"{NO_GPU} (the CUDA driver did not start: {e})") from None
        if count < 1:
            raise NotSupportedError(f"{NO_GPU} (the CUDA driver found no device)")
        self.device = check(driver.cuDeviceGet(0))
        self.context = check(driver.cuDevicePrimaryCtxRetain(self.device))
        self.activate()
        self.name = check(driver.cuDeviceGetName(256, self.device)).split(b"\0")[0].decode()

    def activate(self) -> None:
        """Make the context current on the calling thread (each thread has its own)."""
        check(self.driver.cuCtxSetCurrent(self.context))

    def attribute(self, name: str) -> int:
        """cuDeviceGetAttribute(CU_DEVICE_ATTRIBUTE_<name>)."""
        attr = getattr(self.driver.CUdevice_attribute, f"CU_DEVICE_ATTRIBUTE_{name}")
        return int(check(self.driver.cuDeviceGetAttribute(attr, self.device)))

    @property
    def compute_capability(self) -> tuple[int, int]:
        return self.attribute("COMPUTE_CAPABILITY_MAJOR"), self.attribute("COMPUTE_CAPABILITY_MINOR")

    def peak_bandwidth(self) -> float | None:
        """Bytes per second the memory bus can move: 2 (double data rate) x memory clock x bus
        width. None when the driver does not report the clock (newer drivers may not)."""
        try:
            clock_khz = self.attribute("MEMORY_CLOCK_RATE")
            bus_bits = self.attribute("GLOBAL_MEMORY_BUS_WIDTH")
        except (AttributeError, RuntimeError):
            return None
        return 2.0 * clock_khz * 1e3 * bus_bits / 8 if clock_khz and bus_bits else None

    # -- memory
    def alloc(self, nbytes: int) -> int:
        return int(check(self.driver.cuMemAlloc(max(1, nbytes))))

    def free(self, pointer: int) -> None:
        check(self.driver.cuMemFree(pointer))

    def upload(self, pointer: int, array: np.ndarray) -> None:
        if array.nbytes:
            check(self.driver.cuMemcpyHtoD(pointer, array.ctypes.data, array.nbytes))

    def download(self, array: np.ndarray, pointer: int) -> None:
        if array.nbytes:
            check(self.driver.cuMemcpyDtoH(array.ctypes.data, pointer, array.nbytes))

    def copy(self, dst: int, src: int, nbytes: int) -> None:
        """Device to device (the regions must not overlap)."""
        if nbytes:
            check(self.driver.cuMemcpyDtoD(dst, src, nbytes))

    # -- code
    def load(self, ptx: str):
        """Load PTX text (the driver compiles it for this GPU); returns the module handle."""
        image = np.frombuffer(ptx.encode() + b"\0", dtype=np.uint8)
        return check(self.driver.cuModuleLoadData(image.ctypes.data))

    def function(self, module, name: str):
        return check(self.driver.cuModuleGetFunction(module, name.encode()))

    def launch(self, function, grid, block, shared_bytes: int, pointers: list[int]) -> None:
        """cuLaunchKernel with pointer arguments: kernelParams is an array of addresses, each
        of a slot holding one argument's value (here, a device pointer)."""
        values = (ctypes.c_uint64 * max(1, len(pointers)))(*pointers)
        params = (ctypes.c_void_p * max(1, len(pointers)))(
            *[ctypes.addressof(values) + 8 * i for i in range(len(pointers))])
        check(self.driver.cuLaunchKernel(function, *grid, *block, shared_bytes, 0, ctypes.addressof(params), 0))

    def synchronize(self) -> None:
        check(self.driver.cuCtxSynchronize())

    # -- timing
    def event(self):
        return check(self.driver.cuEventCreate(0))

    def record(self, event) -> None:
        check(self.driver.cuEventRecord(event, 0))

    def elapsed_ms(self, start, end) -> float:
        """Milliseconds between two recorded events (waits for the second); frees both."""
        check(self.driver.cuEventSynchronize(end))
        fn = getattr(self.driver, "cuEventElapsedTime", None) or self.driver.cuEventElapsedTime_v2
        ms = float(check(fn(start, end)))
        for event in (start, end):
            check(self.driver.cuEventDestroy(event))
        return ms


def gpu_available() -> tuple[bool, str]:
    """(True, device name) or (False, why not), without raising."""
    try:
        return True, CudaDevice.get().name
    except NotSupportedError as e:
        return False, str(e)
    except Exception as e:  # a broken installation is also "no GPU", with the reason
        return False, f"{NO_GPU} ({type(e).__name__}: {e})"
