"""Modules jax 0.10.2 wrote (lowered and compiled on CPU, recorded in dumps/): fft, complex
math, f8 and int4 conversions, scan, LAPACK-backed linear algebra, jax.random, and a matmul
sharded over a 2x2 mesh. Each parses, verifies and round-trips; the ones the evaluator can
run give JAX's recorded outputs (arguments all ones, as they were recorded)."""

from pathlib import Path

import numpy as np
import pytest

import hloscope as hs

DUMPS = Path(__file__).parent / "dumps"
FILES = sorted(DUMPS.glob("*.hlo"))
OUTPUTS = np.load(DUMPS / "jax_outputs.npz")


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_real_dump_parses_verifies_and_round_trips(path):
    m = hs.parse_hlo(path.read_text())
    m.verify()
    text = m.to_text()
    again = hs.parse_hlo(text)
    assert again.to_text() == text and again.instruction_count() == m.instruction_count()


def _ones(m):
    return [np.ones(p.shape.dims, p.shape.numpy_dtype) for p in m.entry_computation.parameters]


EVALUATED = [(name, stage) for name in OUTPUTS.files for stage in ("lowered", "compiled")]


@pytest.mark.parametrize("name, stage", EVALUATED, ids=[f"{n}.{s}" for n, s in EVALUATED])
def test_evaluator_gives_jax_recorded_outputs(name, stage):
    m = hs.parse_hlo((DUMPS / f"jax_{name}.{stage}.hlo").read_text())
    got = hs.evaluate(m, *_ones(m))
    got = got[0] if isinstance(got, tuple) and len(got) == 1 else got
    np.testing.assert_allclose(np.asarray(got).astype(np.float64), OUTPUTS[name], rtol=1e-5, atol=1e-5)


@pytest.mark.jax
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_xla_reads_our_print_of_the_dump(path):
    pytest.importorskip("jax", reason="jax (the optional 'jax' extra) is not installed")
    from jax._src.lib import xla_client

    ours = hs.parse_hlo(path.read_text())
    theirs = hs.parse_hlo(xla_client.hlo.hlo_module_from_text(ours.to_text()).to_string())
    theirs.verify()
    assert theirs.instruction_count() == ours.instruction_count()
