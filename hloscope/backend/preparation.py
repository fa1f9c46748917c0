"""The passes every code generator here needs, whichever pipeline the compile named: its
Target's `required_passes`, run by the optimize stage before the pipeline and recorded like
its passes (a target may add its own after the pipeline: Target.lowering_passes).

    layout-normalization    one layout, row-major, for every array (passes/layout_normalization.py)
    batchnorm_expander      batch-norm-training/-inference/-grad as reduces and arithmetic,
                            which no emitter lowers (passes/batchnorm_expander.py)
    sharding-remover        custom-calls that only annotate a sharding (JAX's, for a mesh)
                            dropped: one device has no partitioner (passes/sharding_remover.py)
    add-dependency-remover  ordering tokens that only order dropped: no emitter keeps a token
                            (passes/add_dependency_remover.py)

XLA expands batch norms early in both its CPU and GPU pipelines, before simplification
(BatchNormExpander), so the pipeline after it simplifies and fuses the arithmetic as XLA's
does. It runs after layout-normalization, so everything it adds is laid out row-major.
"""

from __future__ import annotations

from ..passes.add_dependency_remover import AddDependencyRemover
from ..passes.batchnorm_expander import BatchNormExpander
from ..passes.layout_normalization import LayoutNormalization
from ..passes.pipeline import Pipeline
from ..passes.sharding_remover import ShardingRemover

NAME = "codegen-preparation"


def codegen_preparation() -> Pipeline:
    return Pipeline(NAME, [LayoutNormalization(), BatchNormExpander(), ShardingRemover(), AddDependencyRemover()])
