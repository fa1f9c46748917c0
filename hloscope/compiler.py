"""The compiler, start to finish: one table of stages, run by one driver.

    compile(module, backend="cpu", pipeline="default", **options) -> an Executable
    optimize(module, pipeline="default") -> the Compilation of the HLO passes alone
    jit(fn)                              -> trace per signature, compile, cache, run

The table for a target (`compile_table`):

    parse      HLO text -> HloModule (nothing to do for a module)   compilation/sources.py
    cache      the same module and options compile once           compilation/caching.py
    verify     shape inference and consistency checks              compilation/front.py
    optimize   the HLO pass pipeline, every pass recorded
    plan       buffer live ranges and arena offsets
    ...        the target's own rows:
               cpu: lower, llvm-opt, codegen, load                 backend/cpu/target.py
               gpu: lower, ptx, ptxas, load                        backend/gpu/target.py

Every stage is timed and its artifacts kept in the Compilation (`exe.report`), the same
record the explorer, the HTML page and `hloscope dump` read.
"""

from __future__ import annotations

import functools
import re
import warnings
from typing import Any, Callable

from .compilation.caching import cache_stage
from .compilation.executable import Executable
from .compilation.front import front, source_stage
from .compilation.record import Compilation
from .compilation.sources import GivenModule, Source, TracedCall, text_source
from .compilation.stages import Stage, run_stages
from .compilation.target import Target
from .errors import NotSupportedError
from .evaluator import evaluate
from .frontend.autodiff import use_compiler
from .frontend.jit import Jitted
from .ir.module import HloModule
from .passes.pipelines import for_backend, resolve
from .stablehlo.from_jax import JaxCall, is_jax_function

TARGET_NAMES = ("cpu", "gpu")


@functools.cache
def targets() -> dict[str, Target]:
    """The targets by name. Their backends (LLVM, 70 modules) load on the first compile, so
    `import hloscope` stays quick for parsing, evaluating and optimizing."""
    from .backend.cpu.target import CPU
    from .backend.gpu.target import GPU

    return {CPU.name: CPU, GPU.name: GPU}


def target(name: str) -> Target:
    """The target called `name`, or an error listing those there are."""
    if name not in TARGET_NAMES:
        raise NotSupportedError(f"not supported: backend {name!r} (available: {', '.join(map(repr, TARGET_NAMES))})")
    return targets()[name]


_SHARDED: Callable[..., Any] | None = None  # hloscope.sharded.compile_sharded, registered by it (a layer above)
_DEVICES = re.compile(r"(?:num_partitions|replica_count)=(?:[2-9]|\d\d)")


def use_sharded(compile_sharded: Callable[..., Any]) -> None:
    global _SHARDED
    _SHARDED = compile_sharded


def _for_several_devices(source: Any, backend: str) -> HloModule | None:
    """The module, when it is written for several devices and meets at collectives (CPU only)."""
    if backend != "cpu":
        return None
    if isinstance(source, str):
        if not _DEVICES.search(source[:4000]):
            return None
        from .stablehlo import parse_hlo

        source = parse_hlo(source)
    if not isinstance(source, HloModule):
        return None
    from .evaluator.mesh import device_count
    from .ir.opcodes import OPCODES

    replicas, partitions = device_count(source)
    if replicas * partitions <= 1:
        return None
    meets = any(i.opcode in ("partition-id", "replica-id") or getattr(OPCODES.get(i.opcode), "kind", "") == "collective"
                for _, i in source.all_instructions())
    return source if meets else None


def program_source(program: Any, args: tuple) -> Source | HloModule | str:
    """What `compile` was given, as a source: a function with its arguments, or the program."""
    if isinstance(program, (str, HloModule)) or not callable(program):
        if args:
            raise TypeError("compile(module or text) takes no inputs: call the executable it returns with them")
        return program
    if is_jax_function(program):
        return JaxCall(program, args)
    jitted = program if isinstance(program, Jitted) else jit(program)
    return TracedCall(jitted.fn, args, {}, lambda: jitted.specialize(*args))


def new_compilation(source: Source | HloModule | str, backend: str | None, pipeline: Any = "default",
                    title: str = "", **options: Any) -> Compilation:
    """A Compilation with nothing run yet: its source, target and checked options."""
    if isinstance(source, str):
        source = text_source(source)
    elif isinstance(source, HloModule):
        source = GivenModule(source)
    c = Compilation(source, title=title or "hloscope", target=backend or "")
    if backend:
        pipeline = for_backend(pipeline, backend)
        c.options = {"pipeline": pipeline, **target(backend).parse_options(**options)}
    else:
        c.options = {"pipeline": pipeline, **options}
    c.pipeline = resolve(pipeline)  # a misspelt pass name is said before anything runs
    return c


def compile_table(c: Compilation) -> list[Stage]:
    """The stages that compile `c` for its target (see the module docstring)."""
    t = target(c.target)
    rows, shared = t.stages(c), front(t.required_passes(), t.lowering_passes(c.options), t.lowering_reads)
    table = [source_stage(c)]
    if t.caches:
        table.append(cache_stage(t, (*shared, *rows)))
    return [*table, *shared, *rows]


def compile(program: Any, *args: Any, backend: str = "cpu", pipeline: Any = "default", **options: Any) -> Any:
    """Compile a program to native code (cpu) or PTX (gpu): an HLO module, HLO or StableHLO
    text, or a function with its example arguments (`compile(f, x, w)`: a JAX function is
    lowered by JAX, any other is traced by hloscope). A module for several devices (a
    partitioned one) gives a ShardedExecutable: `exe.run_sharded(shards)` runs every device
    (hloscope.sharded). Options: hloscope.backend.cpu.options,
    hloscope.backend.gpu.options; `pipeline` is a pipeline name, or pass and pipeline names
    in order ("algsimp,dce,fusion" or a list)."""
    source = program_source(program, args)
    sharded = _for_several_devices(source, backend)
    if sharded is not None and _SHARDED is not None:  # a partitioned program: every device, natively
        return _SHARDED(sharded, pipeline=pipeline, **options)
    c = new_compilation(source, backend, pipeline, **options)
    run_stages(c, compile_table(c))
    exe = c.executable
    assert exe is not None, "the load stage makes the executable"
    return exe


def optimize(module: HloModule, pipeline: Any = "default", verify: bool = True) -> Compilation:
    """Run the HLO passes (and plan memory) on `module`: the record has the optimized
    module, one PassRecord per pass run, and the memory plan."""
    c = new_compilation(GivenModule(module), None, pipeline, verify=verify)
    run_stages(c, [source_stage(c), *front()])
    return c


def compile_traced(module: HloModule, backend: str, options: dict[str, Any]) -> Callable[..., Any]:
    """What `jit` runs a traced module with: native code, or the reference evaluator with
    backend="evaluator". A program the backend cannot lower yet runs on the evaluator,
    with a warning naming what it could not lower."""
    if backend != "evaluator":
        try:
            return compile(module, backend=backend, **options)
        except NotSupportedError as e:
            warnings.warn(f"{e}; running {module.name} with the reference evaluator instead", stacklevel=4)
    return lambda *args: evaluate(module, *args)


use_compiler(compile_traced)  # derivatives called on concrete arrays run through this compiler


def jit(fn: Callable | None = None, *, static_argnums: Any = (), static_argnames: Any = (), backend: str = "cpu",
        **compile_options: Any) -> Any:
    """Trace `fn` to HLO per signature, compile and cache it (usable as a decorator too).

    backend: "cpu" (native code, the default), "gpu" or "evaluator" (the reference
    interpreter); compile_options go to `compile` (e.g. opt_level=2, pipeline="simplify")."""
    def wrap(f: Callable) -> Jitted:
        return Jitted(f, compile_traced, static_argnums, static_argnames, backend, compile_options)

    return wrap if fn is None else wrap(fn)
