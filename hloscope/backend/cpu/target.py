"""The CPU target: its options, and its rows of the compile table.

    lower      one LLVM function per kernel + the entry function   (lowering.py)
    llvm-opt   LLVM's -O pipeline: inlining, vectorization          (jit.py)
    codegen    machine code (an object file)
    load       link it into this process                           -> CpuExecutable

Each row fills the Compilation: the LLVM IR before and after -O, the kernels with their
partitions, the assembly (made on first use: a second code generation), the executable.
The compile cache (hloscope.compilation.caching) keys on `cache_key_fields`; the disk level
is this target's own (disk_cache.py).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

import llvmlite
import llvmlite.binding as llvm

from ...compilation.caching import remember
from ...compilation.record import Compilation, Kernel, LazyText
from ...compilation.stages import Stage
from ...compilation.target import Target
from ...gc_pause import collector_paused
from ...ir import parse_hlo
from ...runtime.signature import Signature
from .fast.llvm_split import join_parts, parts_of, split_module
from ..preparation import codegen_preparation
from .lowering_passes import STRATEGY_OPTIONS, cpu_lowering
from ..llvm_worker import POOL, Background, LlvmWorker, lease_workers, parts_for, run_on
from . import blas, disk_cache, jit
from .executable import CpuExecutable
from .fast.library import loader as library_loader
from .llvm_target import llvm_target, target_options
from .lowering import Lowered, LoweringOptions, lower
from .options import CpuOptions

NAME = "cpu"


def parse_options(**options: Any) -> dict[str, Any]:
    """The target's options, checked, with their defaults filled in."""
    return CpuOptions.from_kwargs(**options).as_dict()


def cache_key_fields(c: Compilation) -> dict[str, Any] | None:
    """What besides the module decides the machine code (None: this compile is not cached)."""
    opts = CpuOptions.of(c.options)
    if not opts.cache:
        return None
    return {"target": NAME, **opts.code_fields(),
            "host": target_options(opts).resolved(), "triple": llvm.get_default_triple(),
            "llvmlite": llvmlite.__version__, "llvm": llvm.llvm_version_info,
            # the gemm calls in the object take this library's integer width
            "blas": dataclasses.astuple(blas.info())}


def load_from_disk(c: Compilation, key: str) -> CpuExecutable | None:
    """A CpuExecutable from the disk cache, its texts in `c`; None on a miss."""
    opts = CpuOptions.of(c.options)
    found = disk_cache.get(opts.cache_dir, key) if opts.cache_dir else None
    if found is None:
        return None
    obj, meta = found
    kernels = disk_cache.kernels_from(meta)
    library_loader.ensure_for(meta["llvm_ir"])  # before an object calling the library is linked
    native = jit.NativeCode(obj, meta["entry_name"], target_options(opts))
    c.optimized_module = parse_hlo(meta["hlo"])
    c.llvm_ir, c.optimized_llvm_ir = meta["llvm_ir"], meta["optimized_llvm_ir"]
    c.object_size, c.arena_bytes, c.entry_name = sum(map(len, obj)), meta["arena_bytes"], meta["entry_name"]
    c.kernels = kernels
    c.assembly_text = _assembly(c, [], opts)
    return CpuExecutable(native, disk_cache.signature_from(meta), c.arena_bytes, c.compiled_part(),
                         c.input_module, c.options)


@dataclass(frozen=True)
class CpuBuild:
    """The CPU's rows of the compile table, for these options. Stages pass their work on in
    the record's declared fields only (llvm_parts, object_code: dropped by the stage after)."""

    options: CpuOptions

    def lower(self, c: Compilation) -> str:
        opts = self.options
        module = module_of(c)
        lowering = LoweringOptions(opts.emit, opts.threads, opts.parallel_min_elements)
        with collector_paused():  # the IR builder's many small objects (see gc_pause): 20k instructions 5.8 -> 3.4 s
            lowered = lower(module, lowering, c.memory_plan)
            c.llvm_ir = str(lowered.llmod)
        c.entry_name, c.arena_bytes = lowered.entry_name, lowered.layout.arena_bytes
        c.kernels = [Kernel(k.name, k.instruction, k.kind, tuple(b.describe() for b in k.buffers), tuple(k.notes),
                            k.partitions, k.extent, function=_function_name(k)) for k in lowered.kernels]
        split = sum(k.partitions > 1 for k in c.kernels)
        return f"{len(c.kernels)} kernels ({split} split across threads), arena {c.arena_bytes:,} B"

    def llvm_opt(self, c: Compilation) -> str:
        parts = split_module(c.llvm_ir, parts_for(self.options.llvm_parts))
        target = llvm_target(self.options)
        # The leases span this stage and the next: each child keeps its optimized part until
        # code generation takes it (codegen gives them back; so does a compile dropped between).
        leases = lease_workers(len(parts))
        lent = [leases[k % len(leases)] for k in range(len(parts))]
        try:
            answers = run_on([l.worker for l in lent],
                             [lambda w=l.worker, p=p: w.optimize(p, target) for l, p in zip(lent, parts)])
        except BaseException:
            for lease in leases:
                lease.release()
            raise
        c.llvm_parts = [(lease, handle) for lease, (handle, _) in zip(lent, answers)]
        c.optimized_llvm_ir = join_parts([text for _, text in answers])
        split = f", in {len(parts)} parts on {len(leases)} cores" if len(parts) > 1 else ""
        return f"-O{self.options.opt_level}{split}"

    def codegen(self, c: Compilation) -> str:
        assert c.llvm_parts, "llvm-opt runs first"
        leases = list(dict.fromkeys(lease for lease, _ in c.llvm_parts))
        workers = [lease.worker for lease in leases]
        try:
            c.object_code = run_on([l.worker for l, _ in c.llvm_parts],
                                   [lambda w=l.worker, h=h: w.object(h) for l, h in c.llvm_parts])
        finally:
            c.llvm_parts = []  # each handle is used up by its object
            for lease in leases:
                lease.release()
        c.object_size = sum(len(o) for o in c.object_code)
        c.assembly_text = _assembly(c, workers, self.options)
        return f"{c.object_size:,} bytes of machine code for {target_options(self.options).resolved()[0]}"

    def load(self, c: Compilation) -> str:
        target = target_options(self.options)
        library_loader.ensure_for(c.llvm_ir)  # before an object calling the library is linked
        native = jit.NativeCode(c.object_code, c.entry_name, target)
        signature = Signature.of(c.input_module or module_of(c))  # the interface the program was written with
        exe = CpuExecutable(native, signature, c.arena_bytes, c.compiled_part(), c.input_module, c.options)
        c.executable = exe
        remember(c, exe)
        if c.cache_key and self.options.cache_dir:
            disk_cache.put(self.options.cache_dir, c.cache_key, c.object_code, c, signature)
        c.object_code = []  # what the record does not keep goes now
        return f"entry {c.entry_name} linked into this process"


# The options each row reads (a what-if experiment changing one reruns from the first row reading it).
LOWERING_OPTIONS = ("fast_math", "reassociate_reductions", "dot", "threads", "parallel_min_elements", "library",
                    "cpu", "features")
LLVM_OPTIONS = ("opt_level", "cpu", "features")


def stages(c: Compilation) -> list[Stage]:
    """The CPU's rows of the compile table."""
    build = CpuBuild(CpuOptions.of(c.options))
    return [
        Stage("lower", build.lower, needs=("plan",), doc="one LLVM function per kernel + the entry",
              makes=("llvm_ir", "entry_name", "arena_bytes", "kernels"), reads=LOWERING_OPTIONS),
        Stage("llvm-opt", build.llvm_opt, needs=("lower",), doc="LLVM's -O pipeline: inlining, vectorization",
              makes=("llvm_parts", "optimized_llvm_ir"), reads=(*LLVM_OPTIONS, "llvm_parts")),
        Stage("codegen", build.codegen, needs=("llvm-opt",), doc="machine code (an object file)",
              makes=("llvm_parts", "object_code", "object_size", "assembly_text"), reads=LLVM_OPTIONS),
        Stage("load", build.load, needs=("codegen",), doc="link it into this process",
              makes=("executable", "object_code")),
    ]


CPU = Target(NAME, parse_options, stages, "codegen", cache_key_fields, load_from_disk, codegen_preparation, cpu_lowering,
             STRATEGY_OPTIONS)


def _assembly(c: Compilation, workers: list[LlvmWorker], opts: CpuOptions) -> LazyText:
    """The assembly, made on first use; where the compile's table shows it (the explorer),
    the LLVM children start on it now, while this process loads and runs the code."""
    parts = parts_of(c.optimized_llvm_ir)
    wanted = c.table is not None and any(s.name == "assembly" for s in c.table)
    if wanted and workers and not any(w.runs_here for w in workers):
        machine = llvm_target(opts)
        jobs = [Background(lambda part=part: _assemble_lent(part, machine)) for part in parts]
        return LazyText(make=lambda: join_parts([job.result() for job in jobs]))
    target = target_options(opts)
    return LazyText(make=lambda: join_parts([jit.assembly(part, target) for part in parts]))


def _assemble_lent(part: str, machine: dict) -> str:
    """One part's assembly by a worker lent in the background (a compile waiting goes first)."""
    lease = POOL.lease(background=True)
    assert lease is not None, "only a cancelled request goes without"
    with lease:
        return lease.worker.assemble(part, machine)


def _function_name(k) -> str:
    """The LLVM function running a kernel, where it is not the kernel's own (a row program's)."""
    return k.function.name if k.function is not None and k.function.name != k.name else ""


def module_of(c: Compilation):
    """The module the code is made from (after every pass)."""
    module = c.module
    if module is None:
        raise RuntimeError("no module to lower: the front stages did not run")
    return module
