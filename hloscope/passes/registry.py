"""Passes by name: the one table from a pass's name to its class.

    algsimp                  AlgebraicSimplifier
    batchnorm_expander       BatchNormExpander (the code generators run it before any pipeline)
    call-inliner             CallInliner
    constant_folding         ConstantFolding
    cse                      CommonSubexpressionElimination
    dce                      DeadCodeElimination
    fusion                   InstructionFusion
    hlo-memory-scheduler     MemoryScheduler
    layout-normalization     LayoutNormalization (the code generators run it before any pipeline)
    multi_output_fusion      MultiOutputFusion
    reshape-mover            ReshapeMover
    sharding-remover         ShardingRemover (the code generators run it before any pipeline)
    add-dependency-remover   AddDependencyRemover (the code generators run it before any pipeline)
    tuple-simplifier         TupleSimplifier

The names are the `name`s the passes carry, XLA's spelling. XLA mixes `-` and `_`, so a
name is looked up with the two made the same and case ignored (`constant-folding`,
`Multi-Output-Fusion`). `hloscope.passes.pipelines.resolve` reads pass names here; to name
a pass of your own in a pipeline spec, register a pipeline that holds it.
"""

from __future__ import annotations

from ..errors import HloscopeError
from .add_dependency_remover import AddDependencyRemover
from .algsimp import AlgebraicSimplifier
from .batchnorm_expander import BatchNormExpander
from .call_inliner import CallInliner
from .constant_folding import ConstantFolding
from .cse import CommonSubexpressionElimination
from .dce import DeadCodeElimination
from .fusion import InstructionFusion, MultiOutputFusion
from .layout_normalization import LayoutNormalization
from .pipeline import HloPass
from .reshape_mover import ReshapeMover
from .scheduler import MemoryScheduler
from .sharding_remover import ShardingRemover
from .tuple_simplifier import TupleSimplifier

_PASSES: tuple[type[HloPass], ...] = (
    AddDependencyRemover,
    AlgebraicSimplifier,
    BatchNormExpander,
    CallInliner,
    ConstantFolding,
    CommonSubexpressionElimination,
    DeadCodeElimination,
    InstructionFusion,
    LayoutNormalization,
    MemoryScheduler,
    MultiOutputFusion,
    ReshapeMover,
    ShardingRemover,
    TupleSimplifier,
)


class PipelineSpecError(HloscopeError, ValueError):
    """A pipeline spec that names no pipeline or pass, or is empty."""


def canonical(name: str) -> str:
    """The form names are compared in: no surrounding spaces, `_` as `-`, lower case."""
    return name.strip().replace("_", "-").lower()


def known_passes() -> dict[str, type[HloPass]]:
    """{pass name: pass class} for every pass hloscope ships, in alphabetical order."""
    return {cls.name: cls for cls in sorted(_PASSES, key=lambda cls: cls.name)}


def find_pass(name: str) -> type[HloPass] | None:
    """The pass class called `name` (`-`/`_` and case ignored), or None."""
    wanted = canonical(name)
    return next((cls for cls in _PASSES if canonical(cls.name) == wanted), None)
