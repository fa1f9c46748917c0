"""The passes every code generator here needs, whichever pipeline the compile named: its
Target's `required_passes`, run by the optimize stage before the pipeline and recorded like
its passes (a target may add its own after the pipeline: Target.lowering_passes).

    layout-normalization    one layout, row-major, for every array (passes/layout_normalization.py)
"""

from __future__ import annotations

from ..passes.layout_normalization import LayoutNormalization
from ..passes.pipeline import Pipeline

NAME = "codegen-preparation"


def codegen_preparation() -> Pipeline:
    return Pipeline(NAME, [LayoutNormalization()])
