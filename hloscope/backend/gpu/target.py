"""The GPU target: HLO to PTX for NVIDIA GPUs, with or without a GPU.

    lower      one LLVM kernel per fusion / unfused op, with its launch configuration,
               and the host program that runs them (program.py)
    ptx        LLVM's -O pipeline for the NVPTX target machine, then PTX text (codegen.py)
    ptxas      `ptxas -v` on that PTX, when it is on PATH: verdict, registers, shared memory
    load       a GpuExecutable: calling it needs an NVIDIA GPU and cuda-python (executable.py)

The record gets the PTX as its assembly, each kernel's launch, its own slice of the IR
before and after -O and ptxas's reading of it, the host program, and `tools` for the
target-neutral view of a kernel (`report.neutral_ir()`, `report.asm("aarch64")`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import llvmlite.binding as llvm

from ...compilation.record import Compilation, Kernel, LazyText, Launch
from ...compilation.stages import Stage
from ...compilation.target import Target
from ...ir.module import HloModule
from ...memory import MemoryPlan
from ...runtime.signature import Signature
from ..emit_context import EmitOptions
from ..llvm_worker import llvm_workers
from ..preparation import codegen_preparation
from . import codegen, ptxas
from .control_flow import constant_bytes
from .executable import GpuExecutable
from .kernel import ThreadModel
from .lowering import GpuLowered, GpuLoweringOptions, lower
from .nvptx import TRIPLE
from .neutral import neutral_ir
from .options import GpuOptions
from .program import DeviceProgram
from .streams import thunk_sequence
from .targets import assembly

NAME = "gpu"


def parse_options(**options: Any) -> dict[str, Any]:
    """The target's options, checked, with their defaults filled in."""
    return GpuOptions.from_kwargs(**options).as_dict()


def lowering_options(opts: GpuOptions) -> GpuLoweringOptions:
    return GpuLoweringOptions(opts.emit, opts.block_size)


def device_program(lowered: GpuLowered, module: HloModule) -> DeviceProgram:
    """What the executable needs to run the kernels: the steps and buffer places."""
    layout = lowered.layout
    entry = module.entry_computation
    constants = {
        src.value: constant_bytes(entry[src.value])
        for src, _ in layout.output_copies if src.kind == "constant"
    }
    return DeviceProgram(lowered.steps, layout.arena_bytes, tuple(layout.params), tuple(layout.outputs),
                         tuple(layout.output_copies), constants)


@dataclass
class GpuTools:
    """The GPU's extra views of a kernel: target-neutral LLVM IR, and that IR as assembly
    for another machine (x86-64, AArch64, NVPTX, AMDGPU: targets.py)."""

    module: HloModule
    plan: MemoryPlan | None
    emit: EmitOptions

    def neutral_ir(self, instruction: str) -> str:
        return neutral_ir(self.module, instruction, self.plan, self.emit)

    def asm(self, ir_text: str, target: str) -> str:
        return assembly(ir_text, target)


@dataclass(frozen=True)
class GpuBuild:
    """The GPU's rows of the compile table, for these options and thread model (NVPTX's,
    unless a test emulates it on the CPU). Stages pass their work on in the record's declared
    fields only (lowered, device_program: dropped on load)."""

    options: GpuOptions
    threads: ThreadModel | None = None

    def lower(self, c: Compilation) -> str:
        module = module_of(c)
        c.lowered = lowered = lower(module, lowering_options(self.options), c.memory_plan, self.threads)
        c.device_program = program = device_program(lowered, module)
        c.llvm_ir = str(lowered.llmod)
        c.arena_bytes = lowered.layout.arena_bytes
        c.program = program.describe()
        c.thunks = thunk_sequence(program.steps, {k.name: k.instruction for k in lowered.kernels},
                                  arena_bytes=c.arena_bytes)
        return (f"{len(lowered.kernels)} kernels on {c.thunks.streams} stream(s), "
                f"device arena {c.arena_bytes:,} B")

    def ptx(self, c: Compilation) -> str:
        opts = self.options
        target = {"triple": TRIPLE, "cpu": codegen.check_sm(opts.sm), "features": "", "opt_level": opts.opt_level}
        with llvm_workers(1) as [worker]:
            handle, c.optimized_llvm_ir = worker.optimize(c.llvm_ir, target)
            text = worker.assembly(handle)
        c.assembly_text, c.assembly_language = LazyText(text), "PTX"
        c.object_size = len(text)
        c.kernels = kernels(c, llvm.parse_assembly(c.optimized_llvm_ir))  # each kernel's own slice of the IR
        return f"{text.count(chr(10)):,} lines of PTX for {opts.sm}"

    def ptxas(self, c: Compilation) -> str:
        if not self.options.ptxas:
            return "not run (ptxas=False)"
        c.assembler = result = ptxas.assemble(c.ptx, self.options.sm)
        usage = result.usage if isinstance(result, ptxas.PtxasResult) else {}
        c.kernels = [replace(k, usage=usage.get(k.name)) for k in c.kernels]
        note = result.note.splitlines()[0] if result.note else ""
        if result.ok:  # say whether SASS could be shown too
            note += f"; {result.disassembly.note}" if result.sass else "; no SASS (cuobjdump/nvdisasm not found)"
        return note

    def load(self, c: Compilation) -> str:
        module = module_of(c)
        program = c.device_program
        assert program is not None, "lower runs first"
        c.tools = GpuTools(module, c.memory_plan, self.options.emit)
        c.executable = GpuExecutable(program, c.ptx, Signature.of(c.input_module or module), c.compiled_part(),
                                     c.input_module, c.options)
        c.lowered = c.device_program = None  # what the record does not keep goes now
        return "runs where an NVIDIA GPU and cuda-python are present"


def kernels(c: Compilation, llvm_module: Any) -> list[Kernel]:
    """The kernels with their launches and IR slices (of the optimized `llvm_module`, where given)."""
    lowered, program = c.lowered, c.device_program
    assert lowered is not None and program is not None, "lower runs first"
    placed = {launch.name: launch.buffers for launch in program.launches}
    return [
        Kernel(k.name, k.instruction, k.kind, tuple(b.describe() for b in placed[k.name]), tuple(k.notes),
               1, k.elements, Launch(k.launch.grid, k.launch.block, k.launch.shared_bytes),
               str(k.function), codegen.function_text(llvm_module, k.name) if llvm_module is not None else "")
        for k in lowered.kernels
    ]


def stages(c: Compilation) -> list[Stage]:
    """The GPU's rows of the compile table, bound to a fresh GpuBuild."""
    return rows(GpuBuild(GpuOptions.of(c.options)))


def rows(build: GpuBuild) -> list[Stage]:
    """The rows of `build`, each declaring what it makes and reads."""
    return [
        Stage("lower", build.lower, needs=("plan",), doc="one LLVM kernel per fusion, with its launch",
              makes=("lowered", "device_program", "llvm_ir", "arena_bytes", "program", "thunks"),
              reads=("fast_math", "reassociate_reductions", "block_size")),
        Stage("ptx", build.ptx, needs=("lower",), doc="LLVM's -O pipeline for NVPTX, then PTX",
              makes=("optimized_llvm_ir", "assembly_text", "assembly_language", "object_size", "kernels"),
              reads=("sm", "opt_level")),
        Stage("ptxas", build.ptxas, needs=("ptx",), doc="ptxas -v when it is on PATH", makes=("assembler", "kernels"),
              reads=("ptxas", "sm")),
        Stage("load", build.load, needs=("ptx",), doc="the executable (runs where a GPU is)",
              makes=("tools", "executable", "lowered", "device_program")),
    ]


GPU = Target(NAME, parse_options, stages, "ptx", required_passes=codegen_preparation)


def module_of(c: Compilation) -> HloModule:
    module = c.module
    if module is None:
        raise RuntimeError("no module to lower: the front stages did not run")
    return module
