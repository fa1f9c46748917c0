"""`compile(module, backend="gpu", **options)`: HLO to PTX, start to finish, with or without a GPU.

    parse      HLO text -> HloModule (skipped for a module)
    optimize   the HLO pass pipeline: simplify, fuse, schedule      (hloscope.passes)
    plan       buffer live ranges and arena offsets                (hloscope.memory)
    lower      one LLVM kernel per fusion / unfused op, with its launch configuration
    llvm-opt   LLVM's -O pipeline for the NVPTX target machine
    ptx        PTX text from LLVM's NVPTX backend
    ptxas      `ptxas -v` on that PTX, when it is on PATH: verdict, registers, shared memory

The result is a GpuExecutable: its report always holds the PTX; calling it needs an NVIDIA
GPU and cuda-python (hloscope.runtime.gpu_executable). Options: hloscope.runtime.gpu_options.
"""

from __future__ import annotations

import numpy as np

from ...ir.module import HloModule
from ...passes.pipelines import for_backend
from ...runtime.gpu_executable import GpuExecutable
from ...runtime.gpu_program import DeviceProgram
from ...runtime.gpu_options import GpuCompileOptions
from ...runtime.gpu_report import GpuCompileReport, GpuKernelInfo
from ...runtime.signature import Signature
from ...runtime.stages import memory_plan_for, optimize_module, parse_module, timed_stage
from ..emit_context import EmitOptions
from . import codegen, ptxas
from .lowering import GpuLowered, GpuLoweringOptions, lower
from .neutral import neutral_ir


def compile_gpu(module: HloModule | str, **options) -> GpuExecutable:
    """Compile an HLO module (or HLO text) to PTX; see the module docstring."""
    opts = GpuCompileOptions.from_kwargs(**options)
    report = GpuCompileReport(options=opts.as_dict(), sm=opts.sm)
    with timed_stage(report, "parse"):
        module = parse_module(module)
    with timed_stage(report, "optimize"):
        optimized, report.optimize_result = optimize_module(module, for_backend(opts.pipeline, "gpu"))
        report.hlo = optimized.to_text()
    with timed_stage(report, "plan"):
        report.memory_plan = memory_plan_for(report.optimize_result, optimized)
    with timed_stage(report, "lower"):
        lowered = lower(optimized, lowering_options(opts), report.memory_plan)
        report.llvm_ir = str(lowered.llmod)
    with timed_stage(report, "llvm-opt+ptx"):
        llvm_module, report.ptx = codegen.ptx(report.llvm_ir, opts.sm, opts.opt_level)
        report.optimized_llvm_ir = str(llvm_module)
    if opts.ptxas:
        with timed_stage(report, "ptxas", "found" if ptxas.find() else "not on PATH"):
            report.ptxas = ptxas.assemble(report.ptx, opts.sm)
    program = device_program(lowered, optimized)
    _describe(report, lowered, llvm_module, program)
    plan, emit = report.memory_plan, lowering_options(opts).emit
    report._neutral = lambda name: neutral_ir(optimized, name, plan, emit)
    return GpuExecutable(program, report.ptx, Signature.of(optimized), report, module, opts.as_dict())


def lowering_options(opts: GpuCompileOptions) -> GpuLoweringOptions:
    emit = EmitOptions(opts.fast_math, opts.reassociate_reductions, "loops")
    return GpuLoweringOptions(emit, opts.block_size)


def device_program(lowered: GpuLowered, module: HloModule) -> DeviceProgram:
    """What the executable needs to run the kernels: the steps and buffer places."""
    layout = lowered.layout
    entry = module.entry_computation
    constants = {
        src.value: np.ascontiguousarray(entry[src.value].literal.value).tobytes()
        for src, _ in layout.output_copies if src.kind == "constant"
    }
    return DeviceProgram(lowered.steps, layout.arena_bytes, tuple(layout.params), tuple(layout.outputs),
                         tuple(layout.output_copies), constants)


def _describe(report: GpuCompileReport, lowered: GpuLowered, llvm_module, program: DeviceProgram) -> None:
    """The per-kernel part of the report: launches, IR before and after -O, ptxas usage,
    and the program the host runs."""
    usage = report.ptxas.usage if report.ptxas is not None else {}
    placed = {launch.name: launch.buffers for launch in program.launches}  # in the entry's terms
    report.program = program.describe()
    report.arena_bytes = lowered.layout.arena_bytes
    report.object_size = len(report.ptx)
    report.kernels = [
        GpuKernelInfo(
            k.name, k.instruction, k.kind, 1, k.elements, tuple(b.describe() for b in placed[k.name]),
            tuple(k.notes),
            grid=k.launch.grid, block=k.launch.block, shared_bytes=k.launch.shared_bytes,
            llvm_ir=str(k.function), optimized_llvm_ir=codegen.function_text(llvm_module, k.name),
            ptxas=usage.get(k.name),
        )
        for k in lowered.kernels
    ]
