"""The named pipelines: which passes run, in which order, like XLA:CPU's `RunHloPasses`.

Each pipeline is made by a function that returns a fresh `Pipeline`, and the `pipelines`
registry hands out a new copy on every lookup, so editing one never changes the original:

    p = hloscope.pipelines["default"]          # a fresh copy
    p = p.without("cse")                       # drop a pass, at any depth
    p = p.inserted(MyPass(), after="reshape-mover")
    print(p)                                   # the table of contents

"default" follows the CPU compiler (xla/service/cpu/cpu_compiler.cc) in spirit: inline
calls, simplify to a fixed point, sink reshapes, simplify again, fuse, clean up, schedule.
"gpu" is "default" with XLA:GPU's fusion rule for column reductions (their producers fuse).
"simplify" stops before fusion; "none" does nothing.

`resolve(spec)` is how every caller (optimize, compile, bisect, %%hlo) turns what the user
wrote into a Pipeline; a spec is a Pipeline, a pipeline name, or pass and pipeline names in
order, as a list or separated by commas:

    resolve("simplify")                    the registered pipeline of that name
    resolve("algsimp,dce,fusion")          those passes in that order, as pipeline "custom"
    resolve(["simplify", "fusion"])        the simplify pipeline (run as a sub-pipeline), then fusion

Pass names are looked up in hloscope.passes.registry (`-`/`_` and case ignored).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Union

from .algsimp import AlgebraicSimplifier
from .call_inliner import CallInliner
from .constant_folding import ConstantFolding
from .cse import CommonSubexpressionElimination
from .dce import DeadCodeElimination
from .fusion import InstructionFusion, MultiOutputFusion
from .pipeline import Pipeline, Step
from .registry import PipelineSpecError, canonical, find_pass, known_passes
from .reshape_mover import ReshapeMover
from .scheduler import MemoryScheduler
from .tuple_simplifier import TupleSimplifier


def simplification(name: str = "simplification") -> Pipeline:
    """XLA's "simplification" fixed point: rewrite, sweep up, repeat until nothing changes."""
    return Pipeline(
        name,
        [
            AlgebraicSimplifier(),  # x + 0 -> x, reshape(reshape(x)) -> reshape(x), ...
            DeadCodeElimination(),  # sweep up what algsimp left unused
            TupleSimplifier(),  # gte(tuple(a, b), 1) -> b
            ConstantFolding(),  # ops on constants -> constants
            CommonSubexpressionElimination(),  # compute equal things once
            DeadCodeElimination(),
        ],
        fixed_point=True,
    )


def simplify_pipeline() -> Pipeline:
    """Everything target-independent, without fusion or scheduling."""
    return Pipeline(
        "simplify",
        [
            CallInliner(),  # calls are walls for every later pass
            simplification(),
            ReshapeMover(),  # sink reshapes/transposes below elementwise ops
            simplification("simplification-2"),  # let the moved reshapes cancel
        ],
    )


def default_pipeline() -> Pipeline:
    """simplify, then fusion, multi-output fusion, dce and the memory scheduler."""
    p = simplify_pipeline()
    p.name = "default"
    p.passes += [
        InstructionFusion(),  # elementwise producers into their consumers (kLoop/kInput)
        MultiOutputFusion(),  # siblings reading the same input share one loop
        DeadCodeElimination(),
        MemoryScheduler(),  # an order of the ENTRY that keeps peak memory low
    ]
    return p


def gpu_pipeline() -> Pipeline:
    """default, but producers fuse into reductions over major dimensions too: the GPU's
    column-reduction kernel reads those coalesced (XLA:GPU's fusion rule), where a CPU loop
    would stride through memory."""
    p = default_pipeline()
    p.name = "gpu"
    p.passes = [InstructionFusion(fuse_major_reductions=True) if isinstance(q, InstructionFusion) else q
                for q in p.passes]
    return p


def no_pipeline() -> Pipeline:
    """No passes: the module as written."""
    return Pipeline("none", [])


class PipelineRegistry(Mapping):
    """Named pipelines; every lookup builds a fresh copy, free to edit."""

    def __init__(self, factories: dict[str, Callable[[], Pipeline]]):
        self._factories = dict(factories)

    def __getitem__(self, name: str) -> Pipeline:
        try:
            factory = self._factories[name]
        except KeyError:
            raise KeyError(f"no pipeline named {name!r}; known: {', '.join(self._factories)}") from None
        return factory()

    def __iter__(self) -> Iterator[str]:
        return iter(self._factories)

    def __len__(self) -> int:
        return len(self._factories)

    def __contains__(self, name: object) -> bool:
        # Mapping's own `in` would build the pipeline (and fail on unhashable names).
        return isinstance(name, str) and name in self._factories

    def register(self, name: str, factory: Callable[[], Pipeline]) -> None:
        """Add (or replace) a named pipeline, given a function that builds it."""
        self._factories[name] = factory

    def __repr__(self) -> str:
        return f"<pipelines: {', '.join(self._factories)}>"


pipelines = PipelineRegistry(
    {
        "default": default_pipeline,
        "gpu": gpu_pipeline,
        "simplify": simplify_pipeline,
        "none": no_pipeline,
    }
)


Spec = Union[str, Pipeline, list, tuple]


def for_backend(spec: Spec, backend: str) -> Spec:
    """The spec a backend runs for `spec`: "default" means each backend's own default, as
    in XLA ("gpu" for the GPU backend), alone or as one name of a list."""
    if backend != "gpu":
        return spec
    if isinstance(spec, str) and spec in pipelines:  # a whole registered name
        return "gpu" if spec == "default" else spec
    if isinstance(spec, str):
        return ",".join(_gpu_default(name) for name in spec.split(","))
    if isinstance(spec, (list, tuple)):
        return type(spec)(_gpu_default(name) for name in spec)
    return spec


def _gpu_default(name):
    """ "gpu" for a name that stands for the default pipeline; any other name as it is."""
    return "gpu" if _pipeline_name(name) == "default" else name


def resolve(spec: Spec) -> Pipeline:
    """A Pipeline from a Pipeline, a pipeline name, or pass/pipeline names (a list, or one
    string separated by commas); see the module docstring. Raises PipelineSpecError."""
    if isinstance(spec, Pipeline):
        return spec
    if isinstance(spec, str) and spec in pipelines:
        return pipelines[spec]
    if isinstance(spec, str):
        return _custom(spec, spec.split(",") if spec.strip() else [])
    if isinstance(spec, (list, tuple)):
        return _custom(spec, list(spec))
    raise PipelineSpecError(
        f"a pipeline is a Pipeline, a name or a list of names, not {type(spec).__name__} {spec!r}; "
        + _choices()
    )


def _custom(spec: Spec, names: list) -> Pipeline:
    """Pipeline "custom": each name's pass (a fresh one) or named pipeline, in order."""
    found = [_step(name) for name in names]
    steps = [step for step in found if step is not None]
    problems = [_problem(n) for n, step in zip(names, found) if step is None] or ["no names"] * (not names)
    if problems:
        raise PipelineSpecError(f"pipeline {spec!r}: {'; '.join(dict.fromkeys(problems))}; {_choices()}")
    return Pipeline("custom", steps)


def _problem(name) -> str:
    """Why `name` names nothing, for the error message."""
    if not isinstance(name, str):
        return f"{name!r} is not a name (it is of type {type(name).__name__})"
    if not name.strip():
        return "an empty name (two commas in a row, or one at an end?)"
    return f"unknown pass or pipeline {name.strip()!r}"


def _step(name) -> Step | None:
    """The step a name stands for: a named pipeline (first), a fresh pass, or None."""
    if not isinstance(name, str):
        return None
    pipeline = _pipeline_name(name)
    if pipeline is not None:
        return pipelines[pipeline]
    cls = find_pass(name)
    return cls() if cls is not None else None


def _pipeline_name(name) -> str | None:
    """The registered pipeline `name` stands for (exactly, else `-`/`_` and case ignored)."""
    if not isinstance(name, str) or not name.strip():
        return None
    if name.strip() in pipelines:
        return name.strip()
    return next((known for known in pipelines if canonical(known) == canonical(name)), None)


def _choices() -> str:
    """The names a spec may use, for error messages."""
    return f"pipelines: {', '.join(pipelines)}; passes: {', '.join(known_passes())}"
