"""`GpuExecutable`: compiled GPU kernels you call like a function (with an NVIDIA GPU).

    exe = hloscope.compile(module, backend="gpu")
    exe.report.ptx                   # always there, GPU or not
    y = exe(x, w)                    # needs a GPU and cuda-python; else NotSupportedError

A call copies the arguments into one device arena, runs the program's steps in schedule
order (kernel launches with their grid, block and buffer pointers; device copies; loops and
branches, whose predicate the host reads back: program.py), waits, and
copies the results back:

    device arena   [ temporaries (the memory plan's offsets) | parameters | outputs ]

Each region starts at a multiple of 256 bytes. Results that no kernel writes (a parameter or
constant returned as is, a value returned twice) are filled on the host after the kernels,
as the CPU entry function copies them at its end. The PTX is loaded (and JIT-compiled by
the driver for the GPU at hand) on the first call; calls are serialized per executable.
"""

from __future__ import annotations

import threading

import numpy as np

from typing import Any

from ...compilation.executable import Executable
from ...compilation.record import Compilation
from ...ir.module import HloModule
from ...runtime.arguments import check_arguments
from ...runtime.signature import Signature
from .cuda import CudaDevice
from .program import Conditional, DeviceCopy, DeviceProgram, KernelLaunch, WhileLoop

ALIGN = 256


class DeviceArena:
    """Byte offsets of every region in one device allocation."""

    def __init__(self, program: DeviceProgram):
        offset = _align(max(program.arena_bytes, 1))
        self.params, self.outputs = [], []
        for group, target in ((program.params, self.params), (program.outputs, self.outputs)):
            for buf in group:
                target.append(offset)
                offset = _align(offset + max(buf.size, 1))
        self.size = offset

    def offset(self, buf) -> int:
        if buf.kind == "param":
            return self.params[buf.slot]
        if buf.kind == "output":
            return self.outputs[buf.slot]
        if buf.kind == "arena":
            return buf.slot
        raise ValueError(f"a {buf.kind} buffer has no place in the device arena")


def _align(n: int) -> int:
    return (n + ALIGN - 1) // ALIGN * ALIGN


class GpuExecutable(Executable):
    """A compiled HLO module for the GPU. Call it with numpy arrays (on a machine with one)."""

    def __init__(self, program: DeviceProgram, image: str, signature: Signature, report: Compilation,
                 module: HloModule | None = None, options: dict[str, Any] | None = None, device: Any = None):
        self.program = program
        self.image = image  # what the device loads: PTX text for a CUDA device
        self.signature = signature
        self.report = report
        self.module = module
        self.options = dict(options or {})
        self.arena = DeviceArena(program)
        self._device = device
        self._loaded = None  # (device, base pointer, {name: function})
        self._lock = threading.Lock()

    @property
    def device(self):
        """The device this executable runs on (the CUDA device unless one was given)."""
        if self._device is None:
            self._device = CudaDevice.get()
        return self._device

    def with_report(self, report: Compilation) -> GpuExecutable:
        return GpuExecutable(self.program, self.image, self.signature, report, self.module, self.options,
                             self._device)

    def __call__(self, *args: Any) -> Any:
        device = self.device  # NotSupportedError first: no GPU, no point checking arguments
        arrays = check_arguments(self.signature, args)
        with self._lock:
            device.activate()
            base, functions = self._load(device)
            for buf, array in zip(self.program.params, arrays):
                device.upload(base + self.arena.offset(buf), array)
            self._run(device, base, functions, self.program.steps)
            device.synchronize()
            outputs = [self._download(device, base, buf) for buf in self.program.outputs]
            for src, dst in self.program.output_copies:
                outputs[dst.slot] = self._copy_source(device, base, src, arrays)
        results = [self._result(spec, raw) for spec, raw in zip(self.signature.results, outputs)]
        return self.signature.pack(results)

    def profile(self, *args, repeat: int = 20) -> list[tuple[str, float]]:
        """[(kernel, milliseconds per launch)] measured with CUDA events, each kernel launched
        `repeat` times in a row on the arguments' data (after one ordinary call)."""
        self(*args)
        device = self.device
        with self._lock:
            device.activate()
            base, functions = self._load(device)
            times = []
            for launch in self.program.launches:
                start, end = device.event(), device.event()
                device.record(start)
                for _ in range(repeat):
                    self._launch(device, base, functions[launch.name], launch)
                device.record(end)
                times.append((launch.name, device.elapsed_ms(start, end) / repeat))
        return times

    def _load(self, device):
        if self._loaded is None:
            module = device.load(self.image)
            functions = {launch.name: device.function(module, launch.name) for launch in self.program.launches}
            self._loaded = (device, device.alloc(self.arena.size), functions, module)
        return self._loaded[1], self._loaded[2]

    def _run(self, device, base: int, functions: dict, steps) -> None:
        for step in steps:
            if isinstance(step, KernelLaunch):
                self._launch(device, base, functions[step.name], step)
            elif isinstance(step, DeviceCopy):
                self._copy(device, base, step)
            elif isinstance(step, WhileLoop):
                self._run(device, base, functions, step.init)
                while True:
                    self._run(device, base, functions, step.condition)
                    if not self._read_scalar(device, base, step.pred):
                        break
                    self._run(device, base, functions, step.body)
                    self._run(device, base, functions, step.update)
            elif isinstance(step, Conditional):
                index = self._read_scalar(device, base, step.selector)
                if step.selector.shape.dtype == "pred":
                    index = 0 if index else 1
                elif not 0 <= index < len(step.branches):
                    index = len(step.branches) - 1  # out of range: the last branch, as in XLA
                self._run(device, base, functions, step.branches[index])
            else:
                raise TypeError(f"not a device program step: {step!r}")

    def _read_scalar(self, device, base: int, buf) -> int:
        """A predicate or branch index, copied back to the host (this waits for the kernels
        before it, as every copy on the default stream does)."""
        value = np.empty((), buf.shape.numpy_dtype)
        device.download(value.reshape(1).view(np.uint8), base + self.arena.offset(buf))
        return int(value)

    def _copy(self, device, base: int, step: DeviceCopy) -> None:
        dst = base + self.arena.offset(step.dst)
        if step.src is None:
            assert step.data is not None, "a copy without a source buffer has the bytes to upload"
            device.upload(dst, np.frombuffer(step.data, np.uint8))
            return
        src = base + self.arena.offset(step.src)
        if src == dst or not step.dst.size:
            return
        if abs(src - dst) < step.dst.size:  # overlapping: device copies must not overlap
            staged = np.empty(step.dst.size, np.uint8)
            device.download(staged, src)
            device.upload(dst, staged)
        else:
            device.copy(dst, src, step.dst.size)

    def _launch(self, device, base: int, function, launch: KernelLaunch) -> None:
        if 0 in launch.grid or 0 in launch.block:
            return  # nothing to compute (a zero-sized result)
        pointers = [base + self.arena.offset(buf) for buf in launch.buffers]
        device.launch(function, launch.grid, launch.block, 0, pointers)

    def _download(self, device, base: int, buf) -> np.ndarray:
        raw = np.empty(buf.size, np.uint8)
        device.download(raw, base + self.arena.offset(buf))
        return raw

    def _copy_source(self, device, base: int, src, arrays) -> np.ndarray:
        """The bytes of a result no kernel wrote: a parameter, a constant or a device value."""
        if src.kind == "param":
            return np.frombuffer(arrays[src.slot].tobytes(), np.uint8)
        if src.kind == "constant":
            return np.frombuffer(self.program.constants[src.value], np.uint8)
        return self._download(device, base, src)

    @staticmethod
    def _result(spec, raw: np.ndarray) -> np.ndarray:
        return raw.view(spec.dtype).reshape(spec.dims) if raw.size else np.empty(spec.dims, spec.dtype)

    def __del__(self):
        loaded = getattr(self, "_loaded", None)
        if loaded is not None:
            try:
                loaded[0].free(loaded[1])
            except Exception:  # the process may be shutting down; the driver frees it anyway
                pass

    def __repr__(self) -> str:
        return super().__repr__()[:-1] + f" for {self.report.sm}>"
