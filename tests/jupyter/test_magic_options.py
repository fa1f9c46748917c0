"""Reading the %%hlo line: the call, the options, the pipeline spec."""

from __future__ import annotations

import pytest

from hloscope.compilation.inputs import random_array
from hloscope.jupyter.inputs import InputError, is_shape, parse_call, resolve_call
from hloscope.jupyter.options import PANELS, ExploreOptions, OptionError, parse_options, split_line
from hloscope.passes.pipelines import resolve as pipeline_from_spec
from hloscope.passes.registry import PipelineSpecError


def test_split_line_finds_the_call_with_spaces_and_nested_brackets():
    call, tokens = split_line("f(f32[128, 256], w) --pipeline simplify --no-run")
    assert call == "f(f32[128, 256], w)"
    assert tokens == ["--pipeline", "simplify", "--no-run"]


def test_split_line_options_before_the_call_and_no_call():
    assert split_line("--opt-level 1 g(x)") == ("g(x)", ["--opt-level", "1"])
    assert split_line("--args x,w") == (None, ["--args", "x,w"])


def test_unbalanced_call_is_an_option_error():
    with pytest.raises(OptionError, match="unbalanced"):
        split_line("f(x, w")


def test_parse_options_all_of_them():
    o = parse_options("--passes algsimp,dce --backend gpu --show overview,run -O 1 --no-run "
                      "--compare numpy,jax --args x,w --seed 7 --name rep --debug".split())
    assert (o.pipeline, o.backend, o.show, o.opt_level, o.run) == ("algsimp,dce", "gpu", ("overview", "run"), 1, False)
    assert (o.compare, o.args, o.seed, o.report_name, o.debug) == (("numpy", "jax"), ("x", "w"), 7, "rep", True)


def test_parse_options_defaults():
    o = parse_options([])
    assert o.pipeline == "default" and o.show == PANELS and o.run and o.compare is None and o.opt_level == 3


@pytest.mark.parametrize("tokens, match", [
    (["--bogus"], "unrecognized"),
    (["--show", "overview,nope"], "unknown panel"),
    (["--opt-level", "7"], "0..3"),
    (["--compare", "torch"], "unknown target"),
    (["--backend", "tpu"], "invalid choice"),
])
def test_bad_options_raise_option_error(tokens, match):
    with pytest.raises(OptionError, match=match):
        parse_options(tokens)


def test_options_from_keywords():
    o = ExploreOptions.from_kwargs(passes="dce", show="stepper", no_run=True, compare="none")
    assert o.pipeline == "dce" and o.show == ("stepper",) and not o.run and o.compare == ("none",)
    with pytest.raises(OptionError, match="unknown option"):
        ExploreOptions.from_kwargs(colour="red")


def test_pipeline_spec_names_and_pass_lists():
    assert pipeline_from_spec("simplify").name == "simplify"
    p = pipeline_from_spec("algsimp, dce,multi-output-fusion")
    assert p.pass_names() == ["algsimp", "dce", "multi_output_fusion"]
    with pytest.raises(PipelineSpecError, match="unknown pass.*nope"):
        pipeline_from_spec("algsimp,nope")


def test_parse_call():
    spec = parse_call("f(x, f32[2,3], scale=0.5)")
    assert spec.function == "f" and spec.args == ("x", "f32[2,3]") and spec.kwargs == (("scale", "0.5"),)
    assert spec.describe() == "f(x, f32[2,3], scale=0.5)"
    with pytest.raises(InputError, match="expected a call"):
        parse_call("f + 1")


def test_shapes_are_recognised():
    assert is_shape("f32[128,256]") and is_shape("s32[]") and is_shape("pred[4]") and is_shape("bf16[2, 2]")
    assert not is_shape("x") and not is_shape("w[0]") and not is_shape("np.ones((2,2))")


def test_random_inputs_are_seeded_and_typed():
    ns = {"v": 3}
    _, a1, _ = resolve_call(parse_call("f(f32[4,5], s32[3], pred[2], v)"), {**ns, "f": len}, seed=1)
    _, a2, _ = resolve_call(parse_call("f(f32[4,5], s32[3], pred[2], v)"), {**ns, "f": len}, seed=1)
    assert a1[0].dtype.name == "float32" and a1[0].shape == (4, 5) and (a1[0] == a2[0]).all()
    assert a1[1].dtype.name == "int32" and a1[2].dtype == bool and a1[3] == 3


def test_random_array_bf16():
    from hloscope import parse_shape

    a = random_array(parse_shape("bf16[3]"), __import__("numpy").random.default_rng(0))
    assert a.dtype.name == "bfloat16" and a.shape == (3,)


def test_undefined_names_say_what_to_do():
    with pytest.raises(InputError, match="no function named 'g'"):
        resolve_call(parse_call("g(x)"), {})
    with pytest.raises(InputError, match="name 'x' is not defined.*f32"):
        resolve_call(parse_call("f(x)"), {"f": len})
