"""Moved to hloscope.passes (registry.py and pipelines.resolve); these names remain for now."""
from ..passes.pipelines import resolve as pipeline_from_spec  # noqa: F401
from ..passes.registry import PipelineSpecError, known_passes  # noqa: F401
