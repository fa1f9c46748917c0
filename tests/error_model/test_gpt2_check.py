"""The result check on a real JAX program: a GPT-2 training step (loss and 20 gradients).

gpt2_step.hlo is JAX's own HLO for it (make_gpt2_step.py). A correct compile must not be
called different, while real bugs in the compiled program are still caught: an off-by-one
slice, a wrong constant, and one corrupted element. The buggy programs are the HLO with
that one mistake, run by a real compile or by the evaluator (the check cannot tell who
computed the numbers, only how far they are from the correct program's).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import hloscope
from hloscope import session
from hloscope.compilation.checks import check_against_evaluator, compare_outputs, flat_outputs
from hloscope.compilation.error_model import evaluator_references
from hloscope.compilation.inputs import parameter_inputs
from hloscope.compilation.run import output_labels
from hloscope.session import SessionOptions
from hloscope.viz.record_html import run_html

TEXT = (Path(__file__).parent / "gpt2_step.hlo").read_text()
ONE_OFF_SLICE = ("slice(dot_general.39), slice={[0:4], [0:16], [32:64]}",
                 "slice(dot_general.39), slice={[0:4], [0:16], [33:65]}")  # keys read one column late
LAYER_NORM_EPS = ("constant(1e-05)", "constant(0.0001)")  # 1e-4 where the program says 1e-5


@pytest.fixture(scope="module")
def run_record():
    """`hloscope report`'s run stage on the step, with its default seeded random inputs."""
    c = session.new(TEXT, options=SessionOptions(compare=("none",)))
    session.run(c, strict=True)
    return c


@pytest.fixture(scope="module")
def module_and_references(run_record):
    module = run_record.input_module
    inputs = parameter_inputs(module, 0)
    return module, inputs, evaluator_references(module, inputs, flat_outputs(hloscope.evaluate(module, *inputs)))


def _mutated(a: str, b: str) -> hloscope.HloModule:
    assert TEXT.count(a) == 1, a
    return hloscope.parse_hlo(TEXT.replace(a, b))


def test_a_correct_compile_matches_in_words(run_record):
    check = run_record.checks[0]
    assert check.name == "evaluator" and check.ok, check.describe()
    assert len(check.outputs) == 21 and all(v.basis == "f64" for v in check.outputs)
    # gradients are sums over batch and sequence: hloscope's order differs from the evaluator's
    assert max(v.relative for v in check.outputs) > 1e-7
    words = check.describe()
    assert words.startswith("matches the evaluator: worst output ") and "an f32 evaluation itself is off by" in words
    assert "vs evaluator: matches the evaluator" in run_record.summary()
    assert "an f32 evaluation itself is off by" in run_html(run_record)


def test_the_worst_output_is_named_by_its_instruction(run_record):
    labels = output_labels(run_record.input_module)
    worst = run_record.checks[0].worst
    assert worst is not None and worst.label == labels[worst.index] and f"({worst.label})" in run_record.checks[0].describe()


def test_an_off_by_one_slice_in_a_real_compile_is_flagged(module_and_references):
    module, inputs, refs = module_and_references
    wrong = hloscope.compile(_mutated(*ONE_OFF_SLICE), backend="cpu")
    check = check_against_evaluator(refs, wrong(*inputs), output_labels(module))
    assert not check.ok and check.describe().startswith("DIFFERS from the evaluator: output ")
    assert check.worst is not None and check.worst.relative > 1e-2


def test_a_wrong_layer_norm_epsilon_is_flagged(module_and_references):
    _, inputs, refs = module_and_references
    got = flat_outputs(hloscope.evaluate(_mutated(*LAYER_NORM_EPS), *inputs))
    check = check_against_evaluator(refs, got)
    assert not check.ok, check.describe()


def test_one_element_moved_by_ten_thousand_ulps_of_its_scale_is_flagged(run_record, module_and_references):
    _, _, refs = module_and_references
    outputs = [np.array(a) for a in flat_outputs(run_record.outputs)]
    outputs[6][3, 5] += 1e4 * np.finfo(np.float32).eps * np.abs(refs[6].program).max()
    check = check_against_evaluator(refs, outputs)
    assert not check.ok and check.worst is not None and (check.worst.index, check.worst.where) == (6, (3, 5))


def test_a_reordering_sized_error_everywhere_is_accepted(module_and_references):
    """Every element moved by as much as the f32 evaluation's own worst error, at random signs."""
    _, _, refs = module_and_references
    rng = np.random.default_rng(1)
    moved = [(r.program + r.f32_error() * rng.choice([-1.0, 1.0], r.program.shape)).astype(np.float32) for r in refs]
    check = check_against_evaluator(refs, moved)
    assert check.ok, check.describe()


def _xla_outputs() -> list[np.ndarray]:
    """XLA:CPU's outputs on the same inputs, recorded by make_gpt2_step.py."""
    with np.load(Path(__file__).parent / "gpt2_step_xla.npz") as saved:
        return [saved[f"arr_{i}"] for i in range(len(saved.files))]


def test_xla_itself_is_within_the_model(module_and_references):
    """A third f32 implementation, with its own summation orders, is not called different."""
    _, _, refs = module_and_references
    check = check_against_evaluator(refs, _xla_outputs())
    assert check.ok, check.describe()


def test_hloscope_matches_recorded_xla_outputs(run_record, module_and_references):
    module, _, refs = module_and_references
    check = compare_outputs("jax (XLA:CPU)", _xla_outputs(), run_record.outputs, refs, output_labels(module))
    assert check.ok and check.describe().startswith("matches jax (XLA:CPU): worst output "), check.describe()
    broken = [np.array(a) for a in flat_outputs(run_record.outputs)]
    broken[1] = np.roll(broken[1], 1, axis=0)  # the embedding gradient one token row off
    assert not compare_outputs("jax (XLA:CPU)", _xla_outputs(), broken, refs).ok
