"""hloscope and XLA on the same module, side by side.

    cmp = hloscope.xla.compare(f, x, w)       # XLA compiles f through JAX; hloscope compiles
                                              # the module XLA received (before_optimizations)
    cmp = hloscope.xla.compare(record)        # a record read from a dump (hloscope.xla.load)
    cmp.markdown()                            # the tables, for a note; cmp.table(): plain rows

What it holds:
    stages     the pipelines aligned by role, with instruction counts (stage_roles.py)
    fusions    XLA's fusions matched to hloscope's by the operations they cover, with
               hloscope's recorded reason for each difference (fusion_match.py)
    memory     parameters, scratch and total bytes of both (memory_compare.py)
    timings    the median run time of both executables on the same inputs, and whether
               their outputs agree
What could not be done (hloscope refusing an op, jax dropping an unused argument) is said in
`problems`, never raised: a comparison shows what it can.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from ..compilation.checks import Timing, compare_outputs, time_call
from ..compilation.inputs import parameter_inputs
from ..compilation.record import Compilation
from ..compilation.xla import xla_runner
from ..compiler import compile as hloscope_compile
from ..errors import HloscopeError
from . import compare_tables
from .capture import capture_run, dynamic_args, import_jax
from .fusion_groups import SourceMap, fusion_groups
from .fusion_match import STATUSES, DecisionIndex, FusionMatch, match_fusions
from .memory_compare import MemorySide, hloscope_memory, xla_memory
from .partition_compare import compare_partitioning
from .stage_roles import StageRow, align

TIME_BUDGET = 0.3  # seconds of runs per compiler (the median of those runs is reported)


@dataclass(eq=False)
class Comparison:
    """XLA's compilation and hloscope's of the same input module (see the module docstring)."""

    xla: Compilation
    hloscope: Compilation | None
    stages: list[StageRow]
    fusions: list[FusionMatch]
    xla_memory: MemorySide
    hloscope_memory: MemorySide
    timings: list[Timing] = field(default_factory=list)
    outputs: str = ""  # whether both executables' outputs agree, in words ("" if not run)
    problems: list[str] = field(default_factory=list)
    executable: Any = field(default=None, repr=False)  # hloscope's, so explore(comparison) can run it
    partitioning: Any = None  # a sharded program: XLA's SPMD partitioner next to hloscope's (partition_compare)

    def _hloscope_explore_(self, *args, run: bool = True, **options):
        """hloscope.explore(comparison): hloscope's executable (else XLA's record), with the "vs XLA" tab."""
        from ..jupyter import explore_compilation

        return explore_compilation(self.executable or self.xla, *args, run=run, comparison=self, **options)

    @property
    def name(self) -> str:
        module = self.xla.input_module
        return module.name if module is not None else self.xla.title

    def status_counts(self) -> dict[str, int]:
        """{match status: how many}, in STATUSES order, zeros left out."""
        counts = Counter(m.status for m in self.fusions)
        return {s: counts[s] for s in STATUSES if counts[s]}

    def timing(self, name: str) -> Timing | None:
        return next((t for t in self.timings if t.name == name), None)

    def fusion_text(self, compiler: str, name: str) -> str:
        """The HLO of fusion `name` of "XLA" or "hloscope": its instruction, then the fused
        computation(s) it calls ("" if there is no such fusion)."""
        record = self.xla if compiler == "XLA" else self.hloscope
        module = record.optimized_module if record is not None else None
        if module is None:
            return ""
        for comp in module.computations:
            if name in comp and comp[name].opcode == "fusion":
                fusion = comp[name]
                return "\n\n".join([str(fusion)] + [str(module.computation(c)) for c in fusion.called_computations()])
        return ""

    # ---- tables: plain rows, and the renderings (compare_tables.py) ----
    def table(self) -> list[tuple[str, str, str]]:
        """(what, XLA, hloscope) rows: stages by role, fusions, memory, run time."""
        return compare_tables.summary_rows(self)

    def stage_rows(self) -> list[tuple[str, str, str, str, str]]:
        return compare_tables.stage_rows(self)

    def fusion_rows(self) -> list[tuple[str, str, str, str]]:
        return [m.row() for m in self.fusions]

    def markdown(self) -> str:
        return compare_tables.markdown(self)

    def html(self) -> str:
        return compare_tables.html(self)

    def _repr_html_(self) -> str:
        return self.html()

    def __str__(self) -> str:
        return compare_tables.text(self)

    def __repr__(self) -> str:
        counts = ", ".join(f"{n} {s}" for s, n in self.status_counts().items())
        return f"<Comparison of {self.name}: {len(self.fusions)} fusion matches ({counts})>"


def compare(target: Any, *args: Any, time_budget: float = TIME_BUDGET, **jit_kwargs: Any) -> Comparison:
    """Compile `target(*args)` with XLA (through JAX; or HLO text / an HloModule, `args`
    its inputs) and XLA's input module with hloscope, and compare them. Given a record read
    from a dump (hloscope.xla.load) alone, XLA's side is that record, and both run on
    seeded random inputs. `jit_kwargs` go to jax.jit (static_argnums, ...)."""
    if isinstance(target, Compilation):
        if args or jit_kwargs:
            raise TypeError("compare(record) takes a record read from an XLA dump and no arguments")
        if not target.target.startswith("xla"):
            raise TypeError(f"compare(record) takes XLA's record (hloscope.xla.load or capture), not one "
                            f"compiled {'for ' + target.target if target.target else 'by hloscope'}")
        return _compare(target, None, None, time_budget)
    captured = capture_run(target, *args, **jit_kwargs)
    is_function = callable(target) and not isinstance(target, str)
    leaves = _leaves(args, jit_kwargs.get("static_argnums", ())) if is_function else (
        [np.asarray(a) for a in args] or None)
    return _compare(captured.record, captured.run, leaves, time_budget)


def _leaves(args: tuple, static: int | tuple[int, ...]) -> list[np.ndarray]:
    """The arrays XLA's parameters take: the arguments' leaves, static ones left out."""
    jax = import_jax()
    return [np.asarray(a) for a in jax.tree_util.tree_leaves(dynamic_args(args, static))]


def _compare(xla: Compilation, xla_run: Callable[[], Any] | None, leaves: list[np.ndarray] | None,
             time_budget: float) -> Comparison:
    problems: list[str] = []
    module = xla.input_module
    if module is None or xla.optimized_module is None:
        raise HloscopeError(f"{xla.title}: the record has no input or no optimized module to compare")
    ours, exe = _compile_ours(xla, problems)
    canon = SourceMap.of(module)  # both sides' names for ops XLA's call inliner renamed
    fusions = match_fusions(fusion_groups(xla.optimized_module, "XLA", canon),
                            fusion_groups(ours.optimized_module, "hloscope", canon)
                            if ours and ours.optimized_module else [],
                            DecisionIndex(ours.records if ours else [], canon))
    comparison = Comparison(xla, ours, align(xla.records, ours.records if ours else []), fusions,
                            xla_memory(xla), hloscope_memory(ours) if ours else MemorySide(), problems=problems,
                            executable=exe)
    if any(r.name == "spmd-partitioning" for r in xla.records):  # XLA split it over several devices
        try:
            comparison.partitioning = compare_partitioning(xla)
        except HloscopeError as e:
            problems.append(f"the partitioning: {e}")
    inputs = _inputs(module, leaves, problems)
    same_inputs = leaves is None or inputs is leaves  # else the captured run's arguments differ
    _run_both(comparison, xla_run if same_inputs else None, exe, inputs, time_budget)
    xla.comparison = comparison
    if ours is not None:
        ours.comparison = comparison
    return comparison


def _compile_ours(xla: Compilation, problems: list[str]) -> tuple[Compilation | None, Any]:
    assert xla.input_module is not None
    try:
        exe = hloscope_compile(xla.input_module, backend="cpu")
    except HloscopeError as e:
        problems.append(f"hloscope could not compile {xla.input_module.name}: {e}")
        return None, None
    # A copy: the executable (and its report) may stay in the compile cache, which must not
    # keep this comparison, and through it XLA's whole dump, alive.
    return exe.report.session(exe), exe


def _inputs(module, leaves: list[np.ndarray] | None, problems: list[str]) -> list[np.ndarray]:
    """The call's arguments, flattened as XLA's parameters take them; seeded random inputs
    when there is no call (or jax dropped an unused argument, so they do not line up)."""
    params = module.entry_computation.parameters
    if leaves is not None and [tuple(a.shape) for a in leaves] == [tuple(getattr(p.shape, "dims", ())) for p in params]:
        return leaves
    if leaves is not None:
        problems.append(f"the call's {len(leaves)} arguments do not line up with the module's {len(params)} "
                        "parameters (jax drops unused ones): both ran on seeded random inputs")
    return parameter_inputs(module)


def _run_both(c: Comparison, xla_run: Callable[[], Any] | None, exe: Any, inputs: list, budget: float) -> None:
    """Time both executables on the same inputs, and check that their outputs agree.
    `xla_run` (the captured executable) runs on those inputs already, or is None: then XLA
    compiles the input module's text again to run on them (hloscope.compilation.xla)."""
    assert c.xla.input_module is not None
    if xla_run is None:
        runner, why = xla_runner(c.xla.input_module)
        if runner is None:
            c.problems.append(f"XLA was not run: {why}")
        else:
            buffers = runner.put(inputs)
            xla_run = lambda: runner.execute(buffers)  # noqa: E731 - timed as is
    if xla_run is not None:
        c.timings.append(time_call("XLA", xla_run, budget=budget, note="XLA:CPU, same inputs"))
    if exe is None:
        return
    c.timings.append(time_call("hloscope", lambda: exe(*inputs), budget=budget, note="hloscope cpu, same inputs"))
    if xla_run is not None:
        c.outputs = compare_outputs("XLA", _arrays(xla_run()), exe(*inputs)).describe()


def _arrays(result: Any) -> list[np.ndarray]:
    """XLA's outputs as numpy: a jax pytree, or execute_sharded's [[array], ...]."""
    jax = import_jax()
    return [np.asarray(a) for a in jax.tree_util.tree_leaves(result)]
