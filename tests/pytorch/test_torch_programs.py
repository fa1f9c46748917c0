"""Real PyTorch programs as PyTorch/XLA lowers them (tests/pytorch, made by
make_torch_programs.py with torch_xla 2.9.0 and torch 2.9.0 on XLA:CPU; see its docstring):
each lazy step's HLO text (`torch_xla._XLAC._get_xla_tensors_hlo`) parses, prints and parses
back, verifies, evaluates and compiles for the CPU to the outputs XLA:CPU gave, within the
manifest's per-output tolerances. The HLO modules of torch_xla's save-tensors file (the
`XLA_SAVE_TENSORS_FILE` dump of three training steps) parse and verify, and the steady-state
step compiles to what the evaluator gives. Only the recorded files are read: torch is not
imported.

The StableHLO beside them (NAME.lazy.stablehlo.mlir, the same step as `xm.get_stablehlo` prints
it; NAME.stablehlo.mlir, torch.export's program through `exported_program_to_stablehlo`) goes
through the same path: hloscope's legalization (hloscope/stablehlo), then evaluation and the
CPU, to the same outputs."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import hloscope
from hloscope.ir.save_tensors import save_tensors_graphs

HERE = Path(__file__).resolve().parent
MANIFEST = json.loads((HERE / "manifest.json").read_text())
NAMES = sorted(MANIFEST["cases"])
EXPORTED = sorted(n for n in NAMES if MANIFEST["cases"][n]["export"])

def load(name: str, npz: str | None = None) -> tuple[list[np.ndarray], list[np.ndarray]]:
    data = np.load(HERE / (npz or f"{name}.npz"))
    numbered = lambda prefix: sorted((k for k in data.files if k.startswith(prefix)), key=lambda k: int(k[3:]))  # noqa: E731
    return [data[k] for k in numbered("arg")], [data[k] for k in numbered("out")]


def assert_matches_xla(got, name: str) -> None:
    """Every output equals XLA:CPU's within the manifest's tolerance for that output."""
    _, want = load(name)
    specs = MANIFEST["cases"][name]["outputs"]
    got = list(got) if isinstance(got, (tuple, list)) else [got]
    assert len(got) == len(want), f"{len(got)} outputs, XLA made {len(want)}"
    for i, (g, w, spec) in enumerate(zip(got, want, specs)):
        g = np.asarray(g)
        assert (g.shape, g.dtype) == (w.shape, w.dtype), f"out{i}: {g.dtype}{list(g.shape)}, want {w.dtype}{list(w.shape)}"
        if spec["rtol"] == 0 and spec["atol"] == 0:
            np.testing.assert_array_equal(g, w, err_msg=f"{name} out{i}")
        else:
            np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=spec["rtol"],
                                       atol=spec["atol"], err_msg=f"{name} out{i}")


_parsed: dict[str, hloscope.HloModule] = {}


def parsed(name: str) -> hloscope.HloModule:
    if name not in _parsed:
        _parsed[name] = hloscope.parse_hlo((HERE / MANIFEST["cases"][name]["files"]["hlo"]).read_text())
    return _parsed[name]


@pytest.mark.parametrize("name", NAMES)
def test_parse_and_round_trip(name):
    module = parsed(name)
    printed = module.to_text()
    again = hloscope.parse_hlo(printed)
    assert again == module and again.to_text() == printed


@pytest.mark.parametrize("name", NAMES)
def test_parameters_are_the_recorded_inputs(name):
    """The npz's arg0.. are the entry's parameters, in order (weights, optimizer state and the
    scalars torch_xla uploads included)."""
    args, _ = load(name)
    shapes = parsed(name).entry_computation.parameter_shapes
    assert len(shapes) == len(args)
    for i, (shape, a) in enumerate(zip(shapes, args)):
        shape = shape.as_array()
        assert (shape.dims, shape.numpy_dtype) == (a.shape, a.dtype), f"parameter {i}: {shape} vs {a.dtype}{list(a.shape)}"


@pytest.mark.parametrize("name", NAMES)
def test_verify(name):
    parsed(name).verify()


@pytest.mark.parametrize("name", NAMES)
def test_evaluate(name):
    args, _ = load(name)
    assert_matches_xla(hloscope.evaluate(parsed(name), *args), name)


@pytest.mark.parametrize("name", NAMES)
def test_cpu_compile_and_run(name):
    args, _ = load(name)
    assert_matches_xla(hloscope.compile(parsed(name), backend="cpu")(*args), name)


@pytest.mark.parametrize("name", NAMES)
def test_lazy_stablehlo_has_the_same_parameters(name):
    """NAME.lazy.stablehlo.mlir is the same step: its @main takes what NAME.lazy.hlo takes."""
    text = (HERE / MANIFEST["cases"][name]["files"]["lazy_stablehlo"]).read_text()
    assert_main_takes(text, load(name)[0])


@pytest.mark.parametrize("name", EXPORTED)
def test_exported_stablehlo_has_its_recorded_parameters(name):
    export = MANIFEST["cases"][name]["export"]
    text = (HERE / export["files"]["stablehlo"]).read_text()
    args, outs = load(name, export["files"]["npz"])
    assert_main_takes(text, args)
    assert len(outs) == len(export["outputs"])


@pytest.mark.parametrize("name", NAMES)
def test_lazy_stablehlo_evaluates_to_xlas_outputs(name):
    module = hloscope.parse_hlo((HERE / MANIFEST["cases"][name]["files"]["lazy_stablehlo"]).read_text())
    module.verify()
    args, _ = load(name)
    assert_matches_xla(hloscope.evaluate(module, *args), name)


@pytest.mark.parametrize("name", NAMES)
def test_lazy_stablehlo_compiles_to_xlas_outputs(name):
    module = hloscope.parse_hlo((HERE / MANIFEST["cases"][name]["files"]["lazy_stablehlo"]).read_text())
    args, _ = load(name)
    assert_matches_xla(hloscope.compile(module, backend="cpu", cache=False)(*args), name)


@pytest.mark.parametrize("name", EXPORTED)
def test_exported_stablehlo_evaluates_and_compiles_to_torchs_outputs(name):
    """torch.export's program: its outputs as XLA:CPU computed them (a forward pass: the same
    tolerance as the lazy step's first outputs)."""
    export = MANIFEST["cases"][name]["export"]
    module = hloscope.parse_hlo((HERE / export["files"]["stablehlo"]).read_text())
    args, want = load(name, export["files"]["npz"])
    for got in (hloscope.evaluate(module, *args), hloscope.compile(module, backend="cpu", cache=False)(*args)):
        got = list(got) if isinstance(got, (tuple, list)) else [got]
        assert len(got) == len(want)
        for i, (g, w, spec) in enumerate(zip(got, want, export["outputs"])):
            np.testing.assert_allclose(np.asarray(g, np.float64), w.astype(np.float64), rtol=spec.get("rtol", 1e-5),
                                       atol=spec.get("atol", 1e-5), err_msg=f"{name} out{i}")


MLIR_TYPES = {"float32": "f32", "float64": "f64", "int64": "i64", "int32": "i32", "bool": "i1"}


def assert_main_takes(text: str, args: list[np.ndarray]) -> None:
    m = re.search(r"func\.func (?:public )?@main\((.*?)\) ->", text)
    assert m, "no @main in the StableHLO text"
    types = re.findall(r"%arg\d+: tensor<([^>]*)>", m.group(1))
    want = ["x".join([*map(str, a.shape), MLIR_TYPES[str(a.dtype)]]) for a in args]
    assert types == want


# torch_xla's save-tensors file (XLA_SAVE_TENSORS_FILE, XLA_SAVE_TENSORS_FMT=hlo) -----------------

SAVE_TENSORS = HERE / MANIFEST["meta"]["save_tensors_file"]["file"]


def saved_graphs() -> list[str]:
    """The HLO modules of a save-tensors file (hloscope.ir.save_tensors)."""
    return save_tensors_graphs(SAVE_TENSORS.read_text())


def test_save_tensors_file_has_one_graph_per_sync():
    assert len(saved_graphs()) == 3
    assert all(g.startswith("HloModule IrToHlo.") for g in saved_graphs())


def test_the_whole_save_tensors_file_is_named_when_parsed():
    with pytest.raises(hloscope.HloParseError, match=r"torch_xla's save-tensors file \(3 graphs\)"):
        hloscope.parse_hlo(SAVE_TENSORS.read_text())


@pytest.mark.parametrize("index", range(3))
def test_saved_graph_parses_round_trips_and_verifies(index):
    module = hloscope.parse_hlo(saved_graphs()[index])
    again = hloscope.parse_hlo(module.to_text())
    assert again == module
    module.verify()


def test_saved_step_graph_compiles_as_it_evaluates():
    """The steady-state step as the sync compiled it (gradients among its roots, some results
    in {0,1} layouts): the CPU executable agrees with the evaluator on seeded inputs (no
    recorded values exist for a save-tensors file)."""
    module = hloscope.parse_hlo(saved_graphs()[-1])
    rng = np.random.default_rng(0)
    args = []
    for shape in module.entry_computation.parameter_shapes:
        shape = shape.as_array()
        if shape.numpy_dtype.kind == "i":
            args.append(rng.integers(0, 5, size=shape.dims).astype(shape.numpy_dtype))  # class labels
        else:
            args.append(rng.uniform(0.1, 1.0, size=shape.dims).astype(shape.numpy_dtype))  # positive: Adam's second moments
    want = hloscope.evaluate(module, *args)
    got = hloscope.compile(module, backend="cpu")(*args)
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want)):
        g, w = np.asarray(g), np.asarray(w)
        assert (g.shape, g.dtype) == (w.shape, w.dtype), f"out{i}"
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5, err_msg=f"out{i}")
