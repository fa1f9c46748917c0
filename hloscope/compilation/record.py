"""`Compilation`: the record of one compilation, the object every view reads.

A compilation is filled in stage by stage (hloscope.compilation.stages runs the table):

    c.source               what was compiled: HLO text, a module, a traced Python call
    c.stages               [StageRecord(name, status, seconds, note, error)], in order
    c.input_module         the module as given, parsed, legalized or traced; c.listing the trace
                           listing; c.legalization the StableHLO it was legalized from
    c.records              one PassRecord per pass run (before/after snapshots, decisions)
    c.module               the module after the passes (or the input, if none ran)
    c.memory_plan          the schedule's buffer assignment
    c.llvm_ir, c.optimized_llvm_ir, c.assembly (produced on first use), c.assembly_language
    c.kernels              one Kernel per kernel: kind, buffers, launch, per-kernel IR, usage
    c.program              what the host runs (GPU: launches, copies, loops, branches)
    c.thunks               the GPU program as thunks on streams, with the events they wait on
    c.executable           the callable result (explorer records only: see compiler.compile)
    c.inputs, c.outputs, c.checks, c.timings    the run, checked against references and timed
    c.comparison           the hloscope.xla.Comparison this record is one side of, if any

Nothing here knows which compiler filled the record: hloscope's own pipeline does, and so
can anything else that has modules, pass snapshots, a memory plan and code texts to show.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol

from ..errors import HloscopeError
from ..ir.module import HloModule
from ..memory import MemoryPlan
from ..memory.at_peak import MemoryAtPeak, memory_at_peak
from ..passes.peak_suggestions import suggest as suggest_for_peak
from ..passes.pipeline import Pipeline
from ..passes.record import PassRecord
from ..runtime.thunks import ThunkSequence
from ..viz.dump import dump_record
from ..viz.export import save_html
from ..viz.record_html import record_html
from ..viz.record_text import summary
from .checks import Check, Timing

if TYPE_CHECKING:  # modules of this package that import this one
    from .executable import Executable
    from .sources import Source
    from .stages import Stage
    from ..stablehlo import Reading

STATUSES = ("pending", "running", "done", "failed", "skipped", "cached", "reused")
# The fields no stage makes: what is compiled and how (set when the record is made), the
# stage driver's own, and what outlives the compile (a session's settings, experiments).
DRIVER_FIELDS = ("source", "title", "target", "options", "stages", "table", "run_settings", "made",
                 "comparison", "experiments")
# Fields a stage makes for the next one, which a cache hit or a what-if experiment never copies.
TRANSIENT = ("lowered", "llvm_parts", "object_code", "device_program")
FINISHED = ("done", "cached", "reused")
RUN_STAGES = ("run", "assembly")  # what a session runs after compiling (compilation/run.py)


@dataclass
class StageRecord:
    """One stage as it went: status is one of STATUSES ("cached": its result came from the
    compile cache, made by an earlier compilation; "reused": a what-if experiment took it
    from the record it started from, hloscope.whatif)."""

    name: str
    status: str = "pending"
    seconds: float = 0.0
    note: str = ""
    error: BaseException | None = field(default=None, repr=False)

    @property
    def finished(self) -> bool:
        return self.status in FINISHED


@dataclass(frozen=True)
class Launch:
    """How a GPU kernel is launched: blocks per grid, threads per block, static shared bytes."""

    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    shared_bytes: int = 0

    def __str__(self) -> str:
        g, b = self.grid, self.block
        return f"<<<({g[0]}, {g[1]}, {g[2]}), ({b[0]}, {b[1]}, {b[2]}), {self.shared_bytes} B>>>"


class Usage(Protocol):
    """A kernel's resources as an assembler reports them (e.g. ptxas's registers)."""

    def describe(self) -> str: ...


@dataclass(frozen=True)
class Kernel:
    """A kernel as the record shows it. `partitions` is XLA:CPU's outer-dimension
    partitions (threads); a GPU kernel has a `launch` instead, and may carry its own slice
    of the LLVM IR and the assembler's `usage`."""

    name: str
    instruction: str
    kind: str
    buffers: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    partitions: int = 1
    extent: int = 0
    launch: Launch | None = None
    llvm_ir: str = field(default="", repr=False)
    optimized_llvm_ir: str = field(default="", repr=False)
    usage: Usage | None = None
    function: str = ""  # the LLVM function that runs it, where that is not `name` (a row program's)

    @property
    def llvm_function(self) -> str:
        return self.function or self.name

    @property
    def grid(self) -> tuple[int, int, int] | None:
        return self.launch.grid if self.launch else None

    @property
    def block(self) -> tuple[int, int, int] | None:
        return self.launch.block if self.launch else None

    @property
    def shared_bytes(self) -> int:
        return self.launch.shared_bytes if self.launch else 0

    @property
    def ptxas(self) -> Usage | None:
        return self.usage


class LazyText:
    """A text made on first use (assembly costs a second code generation), shared by the
    copies of a record so it is made once."""

    def __init__(self, text: str | None = None, make: Callable[[], str] | None = None):
        self._text, self._make = text, make

    @property
    def text(self) -> str:
        if self._text is None and self._make is not None:
            self._text, self._make = self._make(), None
        return self._text or ""

    @property
    def known(self) -> str:
        """The text if it was made already ("" if not): never makes it."""
        return self._text or ""


class AssemblerCheck(Protocol):
    """An external assembler's verdict on the code (ptxas on PTX): one line, and the log."""

    available: bool
    ok: bool
    log: str

    @property
    def note(self) -> str: ...


class TargetTools(Protocol):
    """Extra views a target offers on its compilation (the GPU: one kernel as target-neutral
    LLVM IR, and that IR as assembly for another machine)."""

    def neutral_ir(self, instruction: str) -> str: ...

    def asm(self, ir_text: str, target: str) -> str: ...


@dataclass
class RunSettings:
    """What the run stage does: whether it runs at all, what it compares with (None: numpy,
    and jax if it is already imported), and the seed of random inputs."""

    run: bool = True
    compare: tuple[str, ...] | None = None
    seed: int = 0


@dataclass(eq=False)
class Compilation:
    """The record of one compilation (see the module docstring)."""

    source: Source
    title: str = "hloscope"
    target: str = ""  # "cpu", "gpu", or "" when only the HLO passes ran
    options: dict[str, Any] = field(default_factory=dict)
    pipeline: Pipeline | None = None
    stages: list[StageRecord] = field(default_factory=list)
    input_module: HloModule | None = None
    listing: object | None = None  # the trace listing (hloscope.frontend.listing.Program)
    legalization: Reading | None = None  # StableHLO read and legalized
    records: list[PassRecord] = field(default_factory=list)
    optimized_module: HloModule | None = None
    memory_plan: MemoryPlan | None = None
    llvm_ir: str = ""
    optimized_llvm_ir: str = ""
    assembly_text: LazyText = field(default_factory=LazyText, repr=False)
    assembly_language: str = "assembly"  # what `assembly` is: "assembly" or "PTX"
    kernels: list[Kernel] = field(default_factory=list)
    program: str = ""
    thunks: ThunkSequence | None = None  # the GPU program's thunks with their streams (backend/gpu/streams.py)
    arena_bytes: int = 0
    object_size: int = 0
    xla_memory_total_bytes: int = 0  # XLA's own buffer assignment total (a record read from XLA's dump)
    entry_name: str = ""
    assembler: AssemblerCheck | None = None
    tools: TargetTools | None = field(default=None, repr=False)
    cache: str = ""  # the compile cache: "miss", "memory" or "disk" (where the code came from), "off"
    cache_key: str = ""
    executable: Executable | None = field(default=None, repr=False)
    # The executable whose report this is, weakly (set by Executable.report): explore(exe.report)
    # shows it while it lives, and the record never keeps machine code alive.
    made: Callable[[], Executable | None] = field(default=lambda: None, repr=False, compare=False)
    run_settings: RunSettings = field(default_factory=RunSettings)
    inputs: list | None = field(default=None, repr=False)
    outputs: Any = field(default=None, repr=False)
    checks: list[Check] = field(default_factory=list)
    timings: list[Timing] = field(default_factory=list)
    table: list[Stage] | None = field(default=None, repr=False)  # the rows filling it (session.run)
    comparison: Any = field(default=None, repr=False, compare=False)  # hloscope.xla.Comparison it is part of
    # What-if experiments run from this record (hloscope.whatif), each drawing itself
    # (.html(), .text()); the copies of a record share the list, so the page keeps them all.
    experiments: list = field(default_factory=list, repr=False, compare=False)
    # What passes from one code stage to the next and is dropped once the code is loaded
    # (TRANSIENT): the lowering (its LLVM module and buffer layout), the optimized parts held
    # in the LLVM workers, the object code, the GPU's device program.
    lowered: Any = field(default=None, repr=False, compare=False)
    llvm_parts: list = field(default_factory=list, repr=False, compare=False)
    object_code: list = field(default_factory=list, repr=False, compare=False)
    device_program: Any = field(default=None, repr=False, compare=False)

    # ---- the modules ----
    @property
    def module(self) -> HloModule | None:
        """The final module: after the passes if they ran, else the input."""
        return self.optimized_module if self.optimized_module is not None else self.input_module

    @property
    def input(self) -> HloModule | None:
        return self.input_module

    @property
    def hlo(self) -> str:
        """The optimized module's text ("" before the passes ran)."""
        return self.optimized_module.to_text() if self.optimized_module is not None else ""

    @property
    def changed_records(self) -> list[PassRecord]:
        return [r for r in self.records if r.changed]

    def record(self, name: str) -> PassRecord:
        """The first record of the pass called `name`."""
        found = next((r for r in self.records if r.name == name), None)
        if found is None:
            raise KeyError(f"no pass run named {name!r}; passes: {sorted({r.name for r in self.records})}")
        return found

    # ---- code ----
    @property
    def assembly(self) -> str:
        """The target's assembly (made on first use when it costs a second code generation)."""
        return self.assembly_text.text

    @property
    def ptx(self) -> str:
        """The PTX of a GPU compilation ("" for other targets)."""
        return self.assembly if self.assembly_language == "PTX" else ""

    @property
    def ptxas(self) -> AssemblerCheck | None:
        return self.assembler

    @property
    def ptxas_note(self) -> str:
        return self.assembler.note if self.assembler is not None else "ptxas was not run (ptxas=False)"

    @property
    def sm(self) -> str:
        return str(self.options.get("sm", ""))

    @property
    def backend(self) -> str:
        return self.target

    def kernel(self, name: str) -> Kernel:
        """The kernel called `name`, or computing HLO instruction `name`."""
        for k in self.kernels:
            if name in (k.name, k.instruction):
                return k
        raise KeyError(f"no kernel {name!r}; kernels: {[k.name for k in self.kernels]}")

    def partitions(self) -> dict[str, int]:
        """{kernel name: number of partitions} (1 = not split across threads)."""
        return {k.name: k.partitions for k in self.kernels}

    def neutral_ir(self, kernel: str | None = None) -> str:
        """`kernel` (default: the first) as target-neutral LLVM IR (a plain loop function)."""
        tools = self._tools("neutral_ir")
        name = self.kernel(kernel).instruction if kernel else self.kernels[0].instruction
        return tools.neutral_ir(name)

    def asm(self, target: str = "nvptx", kernel: str | None = None) -> str:
        """`kernel` in target-neutral form compiled for `target`: "x86-64", "aarch64",
        "nvptx" or "amdgpu" (hloscope.backend.gpu.targets)."""
        return self._tools("asm").asm(self.neutral_ir(kernel), target)

    def _tools(self, what: str) -> TargetTools:
        if self.tools is None:
            raise NotImplementedError(f"{what} is offered by the gpu target; this compilation is for "
                                      f"{self.target or 'no target'}")
        return self.tools

    # ---- stages ----
    def stage(self, name: str) -> StageRecord:
        found = next((s for s in self.stages if s.name == name), None)
        if found is None:
            raise KeyError(f"no stage {name!r}; stages: {[s.name for s in self.stages]}")
        return found

    def has_stage(self, name: str) -> bool:
        return any(s.name == name for s in self.stages)

    @property
    def total_seconds(self) -> float:
        return sum(s.seconds for s in self.stages)

    @property
    def seconds(self) -> float:
        return self.total_seconds

    @property
    def done(self) -> bool:
        return all(s.status not in ("pending", "running") for s in self.stages)

    @property
    def failed(self) -> list[StageRecord]:
        return [s for s in self.stages if s.status == "failed"]

    # ---- the source ----
    @property
    def kind(self) -> str:
        return self.source.kind

    @property
    def function(self) -> Callable | None:
        return getattr(self.source, "function", None)

    # ---- the run ----
    def timing(self, name: str) -> Timing | None:
        return next((t for t in self.timings if t.name == name), None)

    def timing_rows(self) -> list[tuple[str, float, str]]:
        """(name, seconds, note) per timed function that ran, for the export's Run panel."""
        checks = {c.name: c for c in self.checks}
        rows = []
        for t in self.timings:
            if t.seconds is None:
                continue
            c = checks.get(t.name)
            rows.append((t.name, t.seconds, t.note or (c.describe() if c is not None else "")))
        return rows

    # ---- copies ----
    def compiled_part(self) -> Compilation:
        """What an executable keeps as its report: this record without the run (inputs,
        outputs, checks) and without the executable, sharing the compile stages' records
        and every artifact. (So an executable in the cache keeps no explorer alive.)"""
        stages = [s for s in self.stages if s.name not in RUN_STAGES]
        return replace(self, stages=stages, executable=None, inputs=None, outputs=None, checks=[], timings=[],
                       table=None)

    def session(self, executable: Executable | None = None) -> Compilation:
        """A copy to run and show again (explore an executable): fresh stage records and
        run results, the same artifacts."""
        stages = [replace(s) for s in self.stages if s.name not in RUN_STAGES]
        return replace(self, stages=stages, executable=executable, outputs=None, checks=[], timings=[],
                       table=None)

    # ---- views (hloscope.viz: they read this record, and never import it) ----
    def summary(self) -> str:
        return summary(self)

    def __str__(self) -> str:
        return self.summary()

    def __repr__(self) -> str:
        done = sum(s.finished for s in self.stages)
        target = f" for {self.target}" if self.target else ""
        return f"<Compilation {self.title!r}{target}: {done}/{len(self.stages)} stages done>"

    def _repr_html_(self) -> str:
        return record_html(self)

    def save_html(self, path: str | Path, **options: Any) -> Path:
        """One self-contained HTML file with every panel (hloscope.viz.export.save_html)."""
        return save_html(path, self, **options)

    def memory_at_peak(self, suggest: bool | None = None) -> MemoryAtPeak:
        """Every buffer live at the memory plan's peak, its maker, source line and last reader
        (hloscope.memory.at_peak), with measured suggestions (passes/peak_suggestions.py); by
        default those only for hloscope's own plan, which re-planning reproduces."""
        plan, module = self.memory_plan, self.module
        if plan is None:
            raise HloscopeError(f"{self.title}: no memory plan (the plan stage did not run)")
        at = memory_at_peak(plan, module)
        if module is not None and (suggest if suggest is not None else type(plan) is MemoryPlan):
            at.suggestions = suggest_for_peak(module, at)
        return at

    def dump(self, directory: str | Path, timings: bool = False) -> list[Path]:
        """The deterministic text/JSON dump folder (hloscope.viz.dump.dump_record)."""
        return dump_record(directory, self, timings=timings)


# Every field a stage may make: the stage driver checks each stage's writes against its
# declaration (Stage.makes).
STAGE_FIELDS = tuple(f.name for f in fields(Compilation) if f.name not in DRIVER_FIELDS)
