"""Programs written with other people's model code (flax, equinox, optax, keras, haiku:
tests/library_models/library_programs.py), as JAX 0.10 and 0.12 lower them, through every
stage: parse, print and parse again, verify, evaluate, optimize, compile for the CPU and
run, and make the GPU's PTX; from JAX's HLO, from its StableHLO (legalized by hloscope,
hloscope/stablehlo) and from XLA's optimized HLO. Outputs are
compared with XLA's, within each output's tolerance (manifest.json).

Six of them (flax's and keras's LSTM and GRU layers, optax's and keras's CTC losses, as
jax 0.12 lowers them) carry a scan's transposed state in a while loop: the CPU gave wrong
numbers for every element of them, with no error, before layout-normalization
(passes/layout_normalization.py)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import hloscope

ROOT = Path(__file__).resolve().parent / "library_models"
VERSIONS = sorted(p.name for p in ROOT.glob("jax-*"))
CASES = [(v, n) for v in VERSIONS for n in sorted(json.loads((ROOT / v / "manifest.json").read_text())["cases"])]
NEWEST = VERSIONS[-1]


def _case(version: str, name: str) -> tuple[list[np.ndarray], list[np.ndarray], list[dict]]:
    data = np.load(ROOT / version / f"{name}.npz")
    numbered = lambda p: sorted((k for k in data.files if k.startswith(p)), key=lambda k: int(k[3:]))  # noqa: E731
    outputs = json.loads((ROOT / version / "manifest.json").read_text())["cases"][name]["outputs"]
    return [data[k] for k in numbered("arg")], [data[k] for k in numbered("out")], outputs


def _flat(value) -> list[np.ndarray]:
    return [a for v in value for a in _flat(v)] if isinstance(value, tuple) else [np.asarray(value)]


def _assert_xlas_outputs(got, version: str, name: str) -> None:
    _, want, specs = _case(version, name)
    got = _flat(got)
    assert len(got) == len(want)
    for i, (g, w, spec) in enumerate(zip(got, want, specs)):
        assert (g.shape, g.dtype) == (w.shape, w.dtype), f"out{i}"
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=spec["rtol"], atol=spec["atol"],
                                   equal_nan=True, err_msg=f"{version}/{name} out{i}")


def _through_every_stage(version: str, name: str, suffix: str) -> None:
    text = (ROOT / version / f"{name}{suffix}").read_text()
    module = hloscope.parse_hlo(text)
    module.verify()
    assert hloscope.parse_hlo(module.to_text()).to_text() == module.to_text()
    args, _, _ = _case(version, name)
    _assert_xlas_outputs(hloscope.evaluate(module, *args), version, name)
    _assert_xlas_outputs(hloscope.evaluate(hloscope.optimize(module).optimized_module, *args), version, name)
    _assert_xlas_outputs(hloscope.compile(module, backend="cpu", cache=False)(*args), version, name)
    assert ".entry" in hloscope.compile(module, backend="gpu", ptxas=False).report.ptx


def _ids(case) -> str:
    return f"{case[0]}/{case[1]}"


@pytest.mark.parametrize("case", [c for c in CASES if c[0] == NEWEST], ids=_ids)
def test_jax_hlo_through_every_stage(case):
    _through_every_stage(*case, ".hlo")


@pytest.mark.large
@pytest.mark.parametrize("case", [c for c in CASES if c[0] != NEWEST], ids=_ids)
def test_older_jax_hlo_through_every_stage(case):
    _through_every_stage(*case, ".hlo")


@pytest.mark.parametrize("case", [c for c in CASES if c[0] == NEWEST], ids=_ids)
def test_jax_stablehlo_through_every_stage(case):
    """The StableHLO `jax.jit(f).lower(*args).as_text()` prints, legalized by hloscope."""
    _through_every_stage(*case, ".stablehlo.mlir")


@pytest.mark.large
@pytest.mark.parametrize("case", [c for c in CASES if c[0] != NEWEST], ids=_ids)
def test_older_jax_stablehlo_through_every_stage(case):
    _through_every_stage(*case, ".stablehlo.mlir")


@pytest.mark.large
@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_xla_optimized_hlo_through_every_stage(case):
    _through_every_stage(*case, ".opt.hlo")


def test_the_corpus_has_each_library_and_both_jax_versions():
    libraries = {n.split("_")[0] for _, n in CASES}
    assert libraries == {"flax", "eqx", "optax", "keras", "haiku"}
    assert len({n for _, n in CASES}) >= 20 and VERSIONS == ["jax-0.10.2", "jax-0.12.0.1"]
    for version in VERSIONS:
        meta = json.loads((ROOT / version / "manifest.json").read_text())["meta"]
        assert meta["versions"]["jax"] == version.removeprefix("jax-")
