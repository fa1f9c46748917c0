"""A compilation to look at: what `%%hlo`, `hloscope.explore` and `hloscope report` build
and run, from a function call, an HloModule, HLO text or an executable.

    c = session.new(f, x, w, options=SessionOptions(pipeline="simplify"))
    session.run(c, limit=1)          # the first stage: raises on bad input (nothing to show)
    session.run(c, on_update=show)   # the rest: a failure is recorded, what needs it skipped

The table is the compiler's (hloscope.compiler.compile_table) plus two rows a plain
compile does not pay for: the assembly, made now, and the run, checked against the
reference evaluator, numpy and XLA, and timed. An executable is shown as it was compiled
(its stages are kept, nothing is compiled again) and then run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .compilation.executable import Executable
from .compilation.record import Compilation, RunSettings
from .compilation.run import session_stages
from .compilation.sources import GivenModule, HloText, Source, StableHloText, TracedCall, text_source
from .stablehlo.from_jax import JaxCall, is_jax_function
from .compilation.stages import Stage, Update, run_stages
from .compiler import TARGET_NAMES, compile_table, jit, new_compilation, target
from .errors import HloscopeError
from .frontend.jit import Jitted
from .ir.module import HloModule

COMPARE_TARGETS = ("numpy", "jax")


class OptionError(HloscopeError, ValueError):
    """A bad option: an unknown name, a value out of range."""


@dataclass
class SessionOptions:
    """What to compile and run. `pipeline` is a pipeline name, or pass and pipeline names
    separated by commas (or a list)."""

    pipeline: Any = "default"
    backend: str = "cpu"
    opt_level: int = 3
    run: bool = True
    compare: tuple[str, ...] | None = None  # None: numpy, plus jax if it is already imported
    seed: int = 0

    def check(self) -> None:
        if self.compare is not None:
            bad = [c for c in self.compare if c not in COMPARE_TARGETS + ("none",)]
            if bad:
                raise OptionError(f"--compare: unknown target(s) {bad}; use numpy, jax or none")
        if not 0 <= self.opt_level <= 3:
            raise OptionError(f"--opt-level must be 0..3, not {self.opt_level}")
        if self.backend not in TARGET_NAMES:
            raise OptionError(f"--backend must be {' or '.join(TARGET_NAMES)}, not {self.backend!r}")


def new(target: Any, *args: Any, options: SessionOptions | None = None, inputs: list | None = None,
        title: str | None = None, **kwargs: Any) -> Compilation:
    """A Compilation (stages not yet run) for a function call, an HloModule, HLO text or an
    executable. For a function, `args`/`kwargs` are its arguments; for a module or text,
    `args` (or `inputs`) are the inputs (seeded random ones when none are given)."""
    options = options or SessionOptions()
    given = list(args) or inputs
    if isinstance(target, Executable):
        return _of_executable(target, options, title, given)
    if isinstance(target, Compilation) and target.table == [] and target.executable is None:
        return target  # a record read, not compiled (hloscope.xla.load): nothing to run, shown as it is
    if isinstance(target, Compilation):
        exe = target.executable or target.made()
        if exe is None:
            raise HloscopeError("this compilation has no executable to show: it made none (optimize alone), "
                                "or it was freed; explore the executable, or compile again")
        return _of_executable(exe, options, title, given)
    source, name = _source(target, args, kwargs, inputs)
    c = new_compilation(source, options.backend, options.pipeline, title or f"hloscope: {name}",
                        opt_level=options.opt_level)
    c.run_settings = RunSettings(options.run, options.compare, options.seed)
    return c


def table(c: Compilation) -> list[Stage]:
    """The session's stages: the compile table (unless `c` holds an executable already),
    the assembly and the run."""
    rows = compile_table(c) if c.executable is None else []
    return [*rows, *session_stages(assembly_from=target(c.target).code_stage)]


def run(c: Compilation, on_update: Update | None = None, *, limit: int | None = None,
        strict: bool = False) -> Compilation:
    """Run `c`'s pending stages. The table is made on the first run and kept in the record:
    a target's rows carry state from one stage to the next, so a later run must go on with
    the same rows."""
    if c.table is None:
        c.table = table(c)
    return run_stages(c, c.table, on_update or _quiet, strict=strict, limit=limit)


def _quiet(c: Compilation) -> None:
    return None


def _source(target: Any, args: tuple, kwargs: dict, inputs: list | None) -> tuple[Source, str]:
    if isinstance(target, (HloText, StableHloText, GivenModule, TracedCall)):
        return target, target.kind
    if isinstance(target, HloModule):
        return GivenModule(target, list(args) or inputs), target.name
    if isinstance(target, str):
        source = text_source(target, list(args) or inputs)
        return source, "StableHLO module" if source.kind == "stablehlo" else "HLO module"
    if isinstance(target, JaxCall):
        return target, getattr(target.function, "__name__", "fn")
    if is_jax_function(target):  # lowered by JAX to StableHLO; hloscope compiles from there
        return JaxCall(target, tuple(args), dict(kwargs)), getattr(target, "__name__", "fn")
    if callable(target):
        jitted = target if isinstance(target, Jitted) else jit(target)
        plain: Callable = jitted.fn
        call = TracedCall(plain, tuple(args), dict(kwargs), lambda: jitted.specialize(*args, **kwargs))
        return call, getattr(plain, "__name__", "fn")
    raise TypeError(f"expected a function, an HloModule, HLO text or an executable, not {type(target).__name__}")


def _of_executable(exe: Executable, options: SessionOptions, title: str | None, inputs: list | None) -> Compilation:
    """A record that shows `exe` as it was compiled and runs it (on `inputs`, else on the
    inputs it was compiled with, else seeded random ones)."""
    c = exe.report.session(exe)
    c.title = title or c.title
    if inputs:
        c.inputs = inputs
    c.run_settings = RunSettings(options.run, options.compare, options.seed)
    if c.inputs is None and exe.module is not None:
        c.input_module = c.input_module or exe.module
    return c


