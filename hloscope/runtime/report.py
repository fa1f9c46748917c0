"""The compile report: what every stage produced and how long it took.

`exe.report` is the record of one compilation (the same object a notebook, a test or the
HTML export reads):

    report.stages              [Stage(name, seconds, note)]: trace/parse, optimize, plan,
                               lower, llvm-opt, codegen, load (or cache lookups)
    report.hlo                 the HLO module after the passes (text)
    report.optimize_result     hloscope.optimize's result (pass records, decision logs)
    report.memory_plan         the memory plan the arena layout came from (or None)
    report.llvm_ir             the LLVM IR as emitted (one function per kernel + the entry)
    report.optimized_llvm_ir   the same after LLVM's -O pipeline (vectorized loops)
    report.assembly            the target assembly (produced on first access: it costs a
                               second code generation, which compile() does not pay for)
    report.object_size         bytes of machine code
    report.kernels             one KernelInfo per kernel: kind, partitions, buffers, notes
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Stage:
    name: str
    seconds: float
    note: str = ""


@dataclass(frozen=True)
class KernelInfo:
    """A kernel as the report shows it (XLA's outer_dimension_partitions is `partitions`)."""

    name: str
    instruction: str
    kind: str
    partitions: int
    extent: int
    buffers: tuple[str, ...]
    notes: tuple[str, ...]


@dataclass
class CompileReport:
    backend: str = "cpu"
    options: dict = field(default_factory=dict)
    stages: list[Stage] = field(default_factory=list)
    hlo: str = ""
    llvm_ir: str = ""
    optimized_llvm_ir: str = ""
    object_size: int = 0
    arena_bytes: int = 0
    kernels: list[KernelInfo] = field(default_factory=list)
    entry_name: str = ""
    cache: str = "miss"  # miss, memory or disk
    optimize_result: object | None = None
    memory_plan: object | None = None
    _assembly: str | None = None
    _assembler: object | None = None  # callable producing the assembly on demand

    @property
    def assembly(self) -> str:
        if self._assembly is None and self._assembler is not None:
            self._assembly = self._assembler()
        return self._assembly or ""

    def stage(self, name: str) -> Stage:
        return next(s for s in self.stages if s.name == name)

    @property
    def total_seconds(self) -> float:
        return sum(s.seconds for s in self.stages)

    def partitions(self) -> dict[str, int]:
        """{kernel name: number of partitions} (1 = not split across threads)."""
        return {k.name: k.partitions for k in self.kernels}

    def summary(self) -> str:
        lines = [f"hloscope {self.backend} compile ({self.cache}), {self.total_seconds * 1e3:.1f} ms"]
        lines += [f"  {s.name:<10} {s.seconds * 1e3:8.2f} ms  {s.note}" for s in self.stages]
        lines.append(f"  {len(self.kernels)} kernels, arena {self.arena_bytes} B, object {self.object_size} B")
        for k in self.kernels:
            split = f" x{k.partitions} threads" if k.partitions > 1 else ""
            lines.append(f"    {k.name:<32} {k.kind:<10}{split}  {'; '.join(k.notes)}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()
