"""Generated whole modules (module_generator.py) and their mutations (module_mutations.py):
hloscope reads, verifies and prints every generated module back, computes what XLA computes,
and rejects each mutation for the defect put in, where XLA rejects it too."""

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import hloscope as hs
from module_generator import generate  # pyright: ignore[reportMissingImports]
from module_mutations import MUTATIONS, Mutation, about_the_defect, mutate  # pyright: ignore[reportMissingImports]
from xla_judge import xla_compile, xla_parse, xla_run  # pyright: ignore[reportMissingImports]

pytestmark = pytest.mark.fuzz

SEEDS = range(30)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_generated_modules_read_verify_and_round_trip(seed):
    m = hs.parse_hlo(generate(seed).text)
    m.verify()
    text = m.to_text()
    assert hs.parse_hlo(text).to_text() == text


def test_the_generator_is_deterministic_and_varied():
    assert generate(5).text == generate(5).text
    opcodes = {i.opcode for seed in range(100) for i in generate(seed).insts}
    assert len(opcodes) >= 35, sorted(opcodes)


@pytest.mark.jax
@pytest.mark.parametrize("seed", SEEDS)
def test_xla_compiles_them_and_reads_our_print(seed):
    text = generate(seed).text
    xla_compile(text)
    ours = hs.parse_hlo(text)
    assert hs.parse_hlo(xla_parse(ours.to_text()).to_string()).instruction_count() == ours.instruction_count()


def _arguments(m: hs.HloModule, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    for shape in m.entry_computation.parameter_shapes:
        dtype = shape.numpy_dtype
        if dtype == np.bool_:
            out.append(rng.random(shape.dims) < 0.5)
        elif np.issubdtype(dtype, np.integer):
            out.append(rng.integers(0, 9, shape.dims).astype(dtype))
        else:
            out.append(rng.uniform(-3, 3, shape.dims).astype(dtype))
    return out


@pytest.mark.jax
@pytest.mark.parametrize("seed", SEEDS)
def test_the_evaluator_computes_what_xla_computes(seed):
    text = generate(seed).text
    m = hs.parse_hlo(text)
    args = _arguments(m, seed)
    ours = hs.evaluate(m, *args)
    ours = list(ours) if isinstance(ours, tuple) else [ours]
    theirs = xla_run(text, *args)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        a = np.asarray(a)
        if a.dtype.kind in "biu":
            np.testing.assert_array_equal(a, b)
        else:  # f16/bf16 transcendental results may differ in the last bit
            np.testing.assert_allclose(a.astype(np.float64), b.astype(np.float64), rtol=2e-2, atol=1e-3, equal_nan=True)


def _mutations(kind: int, count: int = 3) -> list[Mutation]:
    found = []
    for seed in range(200):
        m = mutate(generate(seed), kind, random.Random(seed))
        if m is not None:
            found.append(m)
        if len(found) == count:
            break
    assert found, f"no generated module fits {MUTATIONS[kind].__name__}"
    return found


@pytest.mark.parametrize("kind", range(len(MUTATIONS)), ids=[f.__name__ for f in MUTATIONS])
def test_each_mutation_is_rejected_for_its_defect(kind):
    for m in _mutations(kind):
        with pytest.raises((hs.HloParseError, hs.HloVerifierError)) as e:
            hs.parse_hlo(m.text).verify()
        assert about_the_defect(e.value, m), f"{m.kind}: {e.value}"


@pytest.mark.jax
@pytest.mark.parametrize("kind", range(len(MUTATIONS)), ids=[f.__name__ for f in MUTATIONS])
def test_xla_rejects_each_mutation_too(kind):
    for m in _mutations(kind):
        with pytest.raises(Exception):
            xla_parse(m.text)
            xla_compile(m.text)


def test_the_judge_wants_the_defect_not_just_any_error():
    m = Mutation("unknown opcode", "", (7,), "unknown opcode", "add.3")
    assert about_the_defect(hs.HloParseError("unknown opcode 'addz'", 7, 3, ""), m)
    assert not about_the_defect(hs.HloParseError("unknown opcode 'addz'", 8, 3, ""), m)  # another line
    assert not about_the_defect(hs.HloParseError("expected ')'", 7, 3, ""), m)  # another defect
    assert not about_the_defect(hs.HloVerifierError("unknown opcode in add.30"), m)  # another instruction
    assert about_the_defect(hs.HloVerifierError("unknown opcode in add.3: ..."), m)
