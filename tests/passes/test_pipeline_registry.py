"""Pipeline specs: `resolve` turns a Pipeline, a pipeline name, or pass and pipeline names
(a comma string or a list) into a Pipeline, for optimize, compile and %%hlo alike."""

from __future__ import annotations

import json

import numpy as np
import pytest
from pass_helpers import corpus_case

import hloscope
from hloscope.errors import HloscopeError, HloVerifierError
from hloscope.passes.bisect import flat_outputs
from hloscope.passes.dce import DeadCodeElimination
from hloscope.passes.fusion import InstructionFusion
from hloscope.passes.pipeline import Pipeline
from hloscope.passes.pipelines import for_backend, pipelines, resolve
from hloscope.passes.registry import PipelineSpecError, find_pass, known_passes
from hloscope.compilation.caching import pipeline_key

ALL_PASSES = ("add-dependency-remover", "algsimp", "batchnorm_expander", "call-inliner", "constant_folding", "cse", "dce", "fusion",
              "hlo-memory-scheduler", "layout-normalization", "multi_output_fusion", "reshape-mover", "sharding-remover",
              "tuple-simplifier")


@pytest.fixture
def registered():
    """A user pipeline "just-dce", removed again after the test."""
    pipelines.register("just-dce", lambda: Pipeline("just-dce", [DeadCodeElimination()]))
    yield "just-dce"
    pipelines._factories.pop("just-dce")


def _names(spec) -> list[str]:
    return resolve(spec).pass_names()


def _close(got, want, case) -> None:
    got, want = flat_outputs(got), flat_outputs(want)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=case["rtol"], atol=case["atol"])


# ---- the pass table ----

def test_every_shipped_pass_has_a_name():
    assert sorted(known_passes()) == sorted(ALL_PASSES)
    assert all(cls.name == name for name, cls in known_passes().items())
    for name in pipelines:
        assert set(pipelines[name].pass_names()) <= set(known_passes()), name


def test_pass_names_ignore_dash_underscore_and_case():
    assert find_pass("Multi-Output-Fusion").name == "multi_output_fusion"
    assert find_pass(" constant-folding ").name == "constant_folding"
    assert find_pass("hlo_memory_scheduler").name == "hlo-memory-scheduler"
    assert find_pass("fusions") is None


# ---- every form of a spec ----

def test_a_pipeline_object_is_used_as_it_is():
    p = Pipeline("mine", [DeadCodeElimination()])
    assert resolve(p) is p


@pytest.mark.parametrize("name", ["default", "gpu", "simplify", "none"])
def test_a_pipeline_name_gives_a_fresh_copy_of_that_pipeline(name):
    a, b = resolve(name), resolve(name)
    assert a.name == name and a is not b
    assert a.pass_names() == pipelines[name].pass_names()


def test_a_registered_pipeline_name(registered):
    assert resolve(registered).name == "just-dce"
    assert _names(registered) == ["dce"]


def test_comma_separated_pass_names_in_order():
    p = resolve("algsimp, DCE,multi-output-fusion,constant-folding")
    assert p.name == "custom"
    assert p.pass_names() == ["algsimp", "dce", "multi_output_fusion", "constant_folding"]


def test_each_name_gets_its_own_pass_object():
    a, b = resolve("dce,dce").passes
    assert a is not b and type(a) is type(b) is DeadCodeElimination


@pytest.mark.parametrize("spec", [["algsimp", "dce", "fusion"], ("algsimp", "dce", "fusion")])
def test_a_list_or_tuple_of_names(spec):
    p = resolve(spec)
    assert p.name == "custom" and p.pass_names() == ["algsimp", "dce", "fusion"]


def test_a_pipeline_name_in_a_list_runs_as_a_sub_pipeline(registered):
    p = resolve(["Simplify", registered, "fusion"])
    simplify, mine, fusion = p.passes
    assert (simplify.name, mine.name, fusion.name) == ("simplify", "just-dce", "fusion")
    assert isinstance(simplify, Pipeline) and isinstance(fusion, InstructionFusion)


def test_a_pipeline_name_wins_over_a_pass_of_the_same_name():
    pipelines.register("cse", lambda: Pipeline("cse", [DeadCodeElimination()]))
    try:
        step = resolve("algsimp,cse").passes[1]
        assert isinstance(step, Pipeline) and step.pass_names() == ["dce"]
    finally:
        pipelines._factories.pop("cse")
    assert resolve("algsimp,cse").pass_names() == ["algsimp", "cse"]


def test_simplify_then_fusion_runs_the_simplify_passes_then_fusion():
    module, _, _, _ = corpus_case("softmax")
    alone = hloscope.optimize(module, "simplify")
    result = hloscope.optimize(module, "simplify,fusion")
    names = [r.name for r in result.records]
    assert names == [r.name for r in alone.records] + ["fusion"]
    assert result.records[-1].pipeline == "custom"
    assert result.records[0].pipeline == "simplify"  # the sub-pipeline keeps its own name
    assert result.module.to_text().count(" fusion(") > alone.module.to_text().count(" fusion(")


# ---- errors ----

def test_unknown_names_are_each_named_with_the_choices():
    with pytest.raises(PipelineSpecError) as info:
        resolve("algsimp,nope,dce,zap")
    text = str(info.value)
    assert "'nope'" in text and "'zap'" in text and "'algsimp'" not in text.split(";")[0]
    assert "pipelines: default, gpu, simplify, none" in text
    assert all(name in text for name in ALL_PASSES)


@pytest.mark.parametrize("spec, why", [
    ("", "no names"),
    ("   ", "no names"),
    ([], "no names"),
    ((), "no names"),
    ("algsimp,,dce", "an empty name"),
    ("algsimp,", "an empty name"),
    (["dce", " "], "an empty name"),
    (["dce", 3], "3 is not a name"),
    (["dce", None], "None is not a name"),
])
def test_empty_and_non_name_specs_are_refused(spec, why):
    with pytest.raises(PipelineSpecError, match=why):
        resolve(spec)


@pytest.mark.parametrize("spec", [None, 3, {"dce": 1}])
def test_a_spec_of_the_wrong_type_is_refused(spec):
    with pytest.raises(PipelineSpecError, match="a pipeline is a Pipeline, a name or a list of names"):
        resolve(spec)


def test_the_error_is_both_a_hloscope_error_and_a_value_error():
    assert issubclass(PipelineSpecError, HloscopeError) and issubclass(PipelineSpecError, ValueError)


def test_optimize_names_a_bad_spec_before_looking_at_the_module():
    invalid = hloscope.parse_hlo("HloModule m\n\nENTRY %e (x: f32[4]) -> f32[5] {\n"
                                 "  %x = f32[4] parameter(0)\n  ROOT %n = f32[5] negate(%x)\n}\n")
    with pytest.raises(HloVerifierError):
        hloscope.optimize(invalid, "dce")
    with pytest.raises(PipelineSpecError, match="'fusoin'"):
        hloscope.optimize(invalid, "algsimp,fusoin")


def test_compile_refuses_a_bad_spec_with_the_same_error():
    module, _, _, _ = corpus_case("unary_chain")
    with pytest.raises(PipelineSpecError, match="'nope'"):
        hloscope.compile(module, backend="cpu", pipeline=["dce", "nope"], cache=False)


# ---- backends ----

@pytest.mark.parametrize("spec, gpu", [
    ("default", "gpu"),
    ("simplify", "simplify"),
    ("default,dce", "gpu,dce"),
    ("algsimp, Default", "algsimp,gpu"),
    (["default", "dce"], ["gpu", "dce"]),
    (("dce", "default"), ("dce", "gpu")),
    (["simplify", "fusion"], ["simplify", "fusion"]),
])
def test_default_means_the_backends_own_default_also_in_a_list(spec, gpu):
    assert for_backend(spec, "gpu") == gpu
    assert for_backend(spec, "cpu") == spec


def test_default_in_a_list_on_the_gpu_fuses_as_the_gpu_pipeline_does():
    inner = resolve(for_backend(["default", "dce"], "gpu")).passes[0]
    assert inner.name == "gpu"
    fusion = next(p for p in inner.passes if isinstance(p, InstructionFusion))
    assert fusion.fuse_major_reductions


def test_a_pipeline_object_is_not_renamed_for_the_gpu():
    p = pipelines["default"]
    assert for_backend(p, "gpu") is p


# ---- optimize and compile run the passes a spec names ----

def test_optimize_with_pass_names_keeps_the_results():
    module, args, outs, case = corpus_case("softmax")
    result = hloscope.optimize(module, "algsimp,dce,fusion")
    assert [r.name for r in result.records] == ["algsimp", "dce", "fusion"]
    assert result.pipeline.name == "custom"
    assert " fusion(" in result.module.to_text()
    _close(hloscope.evaluate(result.module, *args), hloscope.evaluate(module, *args), case)
    _close(hloscope.evaluate(result.module, *args), tuple(outs), case)  # what XLA computed


@pytest.mark.parametrize("spec", [["algsimp", "dce", "fusion"], "algsimp,dce,fusion"])
def test_compile_with_pass_names_gives_the_evaluators_result(spec):
    module, args, _, case = corpus_case("layernorm")
    exe = hloscope.compile(module, backend="cpu", pipeline=spec, cache=False)
    # the code generator's own passes first (layout-normalization, batchnorm_expander), the
    # passes named, then the CPU's type rewrites and its kernel strategy
    assert [r.name for r in exe.report.records] == [
        "layout-normalization", "batchnorm_expander", "sharding-remover", "add-dependency-remover", "algsimp", "dce", "fusion", "complex-as-pairs",
        "narrow-ints-as-bytes", "small-floats-as-bytes", "kernel-strategy"]
    _close(exe(*args), hloscope.evaluate(module, *args), case)


def test_a_list_pipeline_has_the_cache_key_of_its_comma_string():
    assert pipeline_key(["algsimp", "dce"]) == pipeline_key("algsimp,dce") == "algsimp,dce"
    assert pipeline_key(pipelines["default"]) is None  # a Pipeline object has no stable key: not cached
    module, args, _, _ = corpus_case("layernorm")
    hloscope.compile_cache.clear()
    first = hloscope.compile(module, pipeline=["algsimp", "dce"])
    second = hloscope.compile(module, pipeline="algsimp,dce")
    assert first.report.cache == "miss" and second.report.cache == "memory"
    np.testing.assert_array_equal(first(*args), second(*args))
