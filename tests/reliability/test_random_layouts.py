"""Layouts do not change what a program computes (tests/random_layouts.py): the real-model
corpus and random modules, in loops and conditionals, with every instruction in a random
layout, give the evaluator's results compiled for the CPU and on the emulated GPU.

This is how JAX 0.12's wrong answers would have been found: a scan's loop state in
`{2,0,1}` was copied byte for byte into buffers read as `{2,1,0}` (every element wrong, no
error). The code generators now lay every array out row-major first
(passes/layout_normalization.py); these tests hold them to that on any layout.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from fuzz_profile import fuzz_settings
from fuzz_values import assert_matches_evaluator
from hlo_strategies import hlo_cases
from hypothesis import given
from wrappers import inside_a_conditional, inside_a_loop

import hloscope
from random_layouts import non_default_layouts, with_random_layouts

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "gpu"))
from emulator import emulated_executable  # noqa: E402

pytestmark = pytest.mark.fuzz
TESTS = Path(__file__).resolve().parents[1]
FOLDERS = [TESTS / "corpus", TESTS / "models", *sorted((TESTS / "library_models").glob("jax-*"))]
PROGRAMS = sorted(p for folder in FOLDERS for p in folder.glob("*.hlo")
                  if (p.parent / f"{p.name.split('.')[0]}.npz").exists())


def _recorded(program: Path) -> tuple[list[np.ndarray], list[np.ndarray], list[tuple[float, float]]]:
    """The program's inputs, XLA's outputs and each output's (rtol, atol) from its manifest."""
    name = program.name.split(".")[0]
    data = np.load(program.parent / f"{name}.npz")
    numbered = lambda p: sorted((k for k in data.files if k.startswith(p)), key=lambda k: int(k[3:]))  # noqa: E731
    case = json.loads((program.parent / "manifest.json").read_text())["cases"][name]
    outs = [data[k] for k in numbered("out")]
    tolerances = [(o.get("rtol", case.get("rtol")), o.get("atol", case.get("atol"))) for o in case["outputs"]]
    return [data[k] for k in numbered("arg")], outs, tolerances


def _flat(value) -> list[np.ndarray]:
    return [a for v in value for a in _flat(v)] if isinstance(value, tuple) else [np.asarray(value)]


def _on_the_cpu(module):
    return hloscope.compile(module, backend="cpu", cache=False)


def _check(program: Path, seeds: range, executable=_on_the_cpu) -> None:
    """Compiled in random layouts, the program gives XLA's recorded outputs (within each
    output's tolerance: the manifest's, measured against a float64 run, which also holds
    for outputs that are rounding noise around zero, as a bias's gradient under batch norm)."""
    module = hloscope.parse_hlo(program.read_text())
    args, want, tolerances = _recorded(program)
    for seed in seeds:
        relaid = with_random_layouts(module, seed)
        assert non_default_layouts(relaid) > 0 or non_default_layouts(module) == 0
        got = _flat(executable(relaid)(*args))
        for i, (g, w, (rtol, atol)) in enumerate(zip(got, want, tolerances)):
            np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True,
                                       err_msg=f"{program.name} in random layouts (seed {seed}), out{i}")


def _id(program: Path) -> str:
    return f"{program.parent.name}/{program.name}"


@pytest.mark.parametrize("program", PROGRAMS, ids=_id)
def test_a_real_program_in_random_layouts_computes_the_same(program):
    """The corpus, the real models and the library models, as JAX lowered them and as XLA
    optimized them (its bitcasts keep their layouts: they reinterpret bytes)."""
    _check(program, range(1))


@pytest.mark.large
@pytest.mark.parametrize("program", PROGRAMS, ids=_id)
def test_a_real_program_in_more_random_layouts(program):
    _check(program, range(1, 2))


@pytest.mark.large
@pytest.mark.parametrize("program", [p for p in PROGRAMS if p.parent == FOLDERS[-1] and not p.name.endswith(".opt.hlo")],
                         ids=_id)
def test_a_library_program_in_random_layouts_on_the_emulated_gpu(program):
    _check(program, range(1), emulated_executable)


@fuzz_settings(scale=0.25)
@given(hlo_cases(smooth=True))
def test_random_modules_in_loops_and_branches_in_random_layouts(case):
    """A random module as a while loop's body (its parameters and result in the loop state)
    inside both branches of a conditional, every instruction in a random layout: the CPU
    executable and the GPU kernels (emulated) compute what the evaluator does."""
    module = inside_a_conditional(inside_a_loop(case.module))
    relaid = with_random_layouts(module, case.seed)
    args = [*case.arguments(), np.bool_(case.seed % 2)]
    cpu = hloscope.compile(relaid, backend="cpu", cache=False)(*args)
    assert_matches_evaluator(module, args, cpu, where="cpu, random layouts in a loop in a branch")
    gpu = emulated_executable(relaid)(*args)
    assert_matches_evaluator(module, args, gpu, where="gpu (emulated), random layouts in a loop in a branch")


def test_the_wrong_answer_jax_0_12_gave_is_gone():
    """A scan's state in {2,0,1}, read back as {2,1,0} (what the wrong answers came down to)."""
    text = (TESTS / "passes" / "golden" / "layout-normalization" / "loop_state.before.hlo").read_text()
    module = hloscope.parse_hlo(text)
    a = np.random.default_rng(0).standard_normal((4, 20, 16)).astype(np.float32)
    want = np.negative(np.negative(np.negative(a.transpose(1, 0, 2))))
    for pipeline in ("default", "none"):
        exe = hloscope.compile(module, backend="cpu", pipeline=pipeline, cache=False)
        np.testing.assert_array_equal(exe(a), want)
        assert exe.report.records[0].name == "layout-normalization" and exe.report.records[0].changed
    np.testing.assert_array_equal(emulated_executable(module)(a), want)


def test_a_bitcast_between_layouts_reads_the_bytes_as_xla_does():
    text = (TESTS / "passes" / "golden" / "layout-normalization" / "bitcast_between_layouts.before.hlo").read_text()
    module = hloscope.parse_hlo(text)
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    want = x.T.reshape(3, 8)  # {0,1}: memory holds the columns one after another
    np.testing.assert_array_equal(hloscope.evaluate(module, x), want)
    np.testing.assert_array_equal(hloscope.compile(module, backend="cpu", cache=False)(x), want)
