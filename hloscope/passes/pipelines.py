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
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from .algsimp import AlgebraicSimplifier
from .call_inliner import CallInliner
from .constant_folding import ConstantFolding
from .cse import CommonSubexpressionElimination
from .dce import DeadCodeElimination
from .pipeline import Pipeline
from .reshape_mover import ReshapeMover
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
    from .fusion import InstructionFusion
    from .fusion import MultiOutputFusion
    from .scheduler import MemoryScheduler

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
    from .fusion import InstructionFusion

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


def for_backend(pipeline, backend: str):
    """The pipeline a backend runs for `pipeline`: "default" means each backend's own
    default, as in XLA ("gpu" for the GPU backend)."""
    return "gpu" if backend == "gpu" and pipeline == "default" else pipeline


def resolve(pipeline: str | Pipeline) -> Pipeline:
    """A Pipeline from a name in the registry, or the pipeline itself."""
    return pipelines[pipeline] if isinstance(pipeline, str) else pipeline
