"""`compile(module, backend="cpu", **options) -> Executable`: the compiler, start to finish.

    parse      HLO text -> HloModule (skipped for a module)
    optimize   the HLO pass pipeline: simplify, fuse, schedule      (hloscope.passes)
    plan       buffer live ranges and arena offsets                (hloscope.memory)
    lower      one LLVM function per kernel + the entry function   (hloscope.backend.cpu)
    llvm-opt   LLVM's -O3 pipeline: inlining, vectorization
    codegen    machine code (an object file)
    load       link it into this process                           -> Executable + report

Each stage is timed and its artifact kept in `exe.report` (hloscope.runtime.report).
Options are listed in hloscope.runtime.options.
"""

from __future__ import annotations

from .errors import NotSupportedError
from .ir.module import HloModule
from .runtime import cache
from .runtime.executable import Executable
from .runtime.options import CompileOptions
from .runtime.report import CompileReport, KernelInfo
from .runtime.signature import Signature
from .runtime.stages import memory_plan_for, optimize_module, parse_module, timed_stage


def compile(module: HloModule | str, backend: str = "cpu", **options) -> Executable:
    """Compile an HLO module (or HLO text) to native code. See hloscope.runtime.options."""
    if backend == "gpu":  # PTX for NVIDIA GPUs: hloscope/backend/gpu/compiler.py
        from .backend.gpu.compiler import compile_gpu

        return compile_gpu(module, **options)
    if backend != "cpu":
        raise NotSupportedError(f"not supported: backend {backend!r} (available: 'cpu', 'gpu')")
    opts = CompileOptions.from_kwargs(**options)
    report = CompileReport(options=opts.as_dict())
    with timed_stage(report, "parse"):
        module = parse_module(module)
    key = _key(module, opts)
    hit = _from_cache(key, opts, report)
    if hit is not None:
        return hit
    with timed_stage(report, "optimize"):
        optimized, report.optimize_result = optimize_module(module, opts.pipeline)
        report.hlo = optimized.to_text()
    with timed_stage(report, "plan"):
        report.memory_plan = memory_plan_for(report.optimize_result, optimized)
    with timed_stage(report, "lower"):
        lowered = _lower(optimized, opts, report.memory_plan)
        report.llvm_ir = str(lowered.llmod)
    from .backend.cpu import jit

    target = jit.TargetOptions(opts.opt_level, opts.cpu, opts.features)
    with timed_stage(report, "llvm-opt"):
        llvm_module = jit.optimize(report.llvm_ir, target)
        report.optimized_llvm_ir = str(llvm_module)
    with timed_stage(report, "codegen"):
        obj = jit.object_code(llvm_module, target)
    with timed_stage(report, "load"):
        native = jit.NativeCode(obj, lowered.entry_name, target)
    _describe(report, lowered, obj, target)
    exe = Executable(native, Signature.of(optimized), lowered.layout.arena_bytes, report, module, opts.as_dict())
    _to_cache(key, opts, exe, obj)
    return exe


def _lower(module: HloModule, opts: CompileOptions, plan):
    from .backend.cpu.lowering import LoweringOptions, lower
    from .backend.emit_context import EmitOptions

    emit = EmitOptions(opts.fast_math, opts.reassociate_reductions, opts.dot)
    return lower(module, LoweringOptions(emit, opts.threads, opts.parallel_min_elements), plan)


def _describe(report: CompileReport, lowered, obj: bytes, target) -> None:
    from .backend.cpu import jit

    report.entry_name = lowered.entry_name
    report.object_size = len(obj)
    report.arena_bytes = lowered.layout.arena_bytes
    report.kernels = [
        KernelInfo(k.name, k.instruction, k.kind, k.partitions, k.extent,
                   tuple(b.describe() for b in k.buffers), tuple(k.notes))
        for k in lowered.kernels
    ]
    ir_text = report.optimized_llvm_ir
    report._assembler = lambda: jit.assembly(ir_text, target)


def _key(module: HloModule, opts: CompileOptions) -> str | None:
    if not opts.cache or not isinstance(opts.pipeline, str):
        return None
    from .backend.cpu import jit

    target = jit.TargetOptions(opts.opt_level, opts.cpu, opts.features)
    return cache.cache_key(module.to_text(), opts.key_fields(), target.resolved())


def _from_cache(key, opts: CompileOptions, report: CompileReport) -> Executable | None:
    if key is None:
        return None
    with timed_stage(report, "cache"):
        exe = cache.memory_get(key)
    if exe is not None:
        return _rewrapped(exe, report, "memory")
    if opts.cache_dir is None:
        return None
    with timed_stage(report, "disk-cache"):
        found = cache.disk_get(opts.cache_dir, key)
        if found is None:
            return None
        exe = _load_cached(found, opts, report)
    cache.memory_put(key, exe)
    return exe


def _rewrapped(exe: Executable, report: CompileReport, how: str) -> Executable:
    """A new Executable over the same machine code, whose report says it came from a cache."""
    old = exe.report
    new = CompileReport(**{**old.__dict__, "stages": report.stages, "cache": how, "options": report.options})
    return Executable(exe.native, exe.signature, exe.arena_bytes, new, exe.module, exe.options)


def _load_cached(found, opts: CompileOptions, report: CompileReport) -> Executable:
    from .backend.cpu import jit

    obj, meta = found
    target = jit.TargetOptions(opts.opt_level, opts.cpu, opts.features)
    native = jit.NativeCode(obj, meta["entry_name"], target)
    report.cache = "disk"
    report.hlo, report.llvm_ir, report.optimized_llvm_ir = meta["hlo"], meta["llvm_ir"], meta["optimized_llvm_ir"]
    report.object_size, report.arena_bytes, report.entry_name = len(obj), meta["arena_bytes"], meta["entry_name"]
    report.kernels = cache.kernels_from(meta)
    ir_text = report.optimized_llvm_ir
    report._assembler = lambda: jit.assembly(ir_text, target)
    return Executable(native, cache.signature_from(meta), meta["arena_bytes"], report, None, opts.as_dict())


def _to_cache(key, opts: CompileOptions, exe: Executable, obj: bytes) -> None:
    if key is None:
        return
    cache.memory_put(key, exe)
    if opts.cache_dir is not None:
        cache.disk_put(opts.cache_dir, key, obj, exe.report.entry_name, exe.signature, exe.arena_bytes, exe.report)
