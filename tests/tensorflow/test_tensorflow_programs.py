"""TensorFlow programs through hloscope, from recorded files only (TensorFlow is not needed:
tests/tensorflow/make_tf_programs.py made them, with TensorFlow installed).

Each `tf.function(jit_compile=True)` program's HLO (`experimental_get_compiler_ir(*args)(stage=
"hlo")`) parses, verifies, prints and parses back to the same text, evaluates and compiles for
the CPU to TensorFlow's own outputs (each within the manifest's tolerance), and explores. The
dump folder of a program run under auto-clustering (TF_XLA_FLAGS=--tf_xla_auto_jit=2) loads in
the XLA lens with one record per cluster.

conv_bn's fused batch norm lowers to `batch-norm-training`: the evaluator runs it as it is, and
the CPU target expands it first into reduces and arithmetic (batchnorm_expander, as XLA does).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import hloscope
from hloscope.xla.dump_files import find_modules

ROOT = Path(__file__).resolve().parent
MANIFEST = json.loads((ROOT / "manifest.json").read_text())
NAMES = sorted(MANIFEST["cases"])
DUMP = ROOT / "autoclustered_dump"


HLO_TYPES = {"float32": "f32", "float64": "f64", "int32": "s32", "int64": "s64", "bool": "pred"}


def _case(name: str) -> tuple[str, list[np.ndarray], list[np.ndarray], list[dict]]:
    case = MANIFEST["cases"][name]
    data = np.load(ROOT / f"{name}.npz")
    args = [data[f"arg{i}"] for i in range(len(case["inputs"]))]
    outs = [data[f"out{i}"] for i in range(len(case["outputs"]))]
    assert sorted(data.files) == sorted([f"arg{i}" for i in range(len(args))] + [f"out{i}" for i in range(len(outs))])
    return (ROOT / f"{name}.hlo").read_text(), args, outs, case["outputs"]


def _flat(value) -> list[np.ndarray]:
    return [a for v in value for a in _flat(v)] if isinstance(value, (tuple, list)) else [np.asarray(value)]


def _assert_tensorflows_outputs(got, name: str) -> None:
    _, _, want, specs = _case(name)
    got = _flat(got)
    assert len(got) == len(want), f"{name}: {len(got)} outputs, TensorFlow's HLO has {len(want)}"
    for i, (g, w, spec) in enumerate(zip(got, want, specs)):
        assert (g.shape, g.dtype) == (w.shape, w.dtype), f"{name} out{i}"
        if w.dtype.kind in "fc":
            np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=spec["rtol"], atol=spec["atol"],
                                       err_msg=f"{name} out{i}")
        else:
            np.testing.assert_array_equal(g, w, err_msg=f"{name} out{i}")


def test_the_manifest_says_where_the_programs_came_from():
    meta = MANIFEST["meta"]
    assert meta["versions"]["tensorflow"] and "experimental_get_compiler_ir" in meta["hlo_api"]
    assert len(NAMES) >= 4
    for name in NAMES:
        assert (ROOT / f"{name}.hlo").read_text().startswith("HloModule a_inference_"), name  # tf.function's name


@pytest.mark.parametrize("name", NAMES)
def test_tensorflow_hlo_parses_verifies_and_prints_back(name):
    text, args, _, _ = _case(name)
    module = hloscope.parse_hlo(text)
    module.verify()
    printed = module.to_text()
    assert hloscope.parse_hlo(printed).to_text() == printed
    params = module.entry_computation.parameter_shapes
    assert [(s.dtype, tuple(s.dims)) for s in params] == [(HLO_TYPES[a.dtype.name], a.shape) for a in args], \
        "the .npz holds one array per parameter, in order"


@pytest.mark.parametrize("name", NAMES)
def test_tensorflow_hlo_evaluates_to_tensorflows_outputs(name):
    text, args, _, _ = _case(name)
    _assert_tensorflows_outputs(hloscope.evaluate(hloscope.parse_hlo(text), *args), name)


@pytest.mark.parametrize("name", NAMES)
def test_tensorflow_hlo_compiled_for_cpu_runs_to_tensorflows_outputs(name):
    text, args, _, _ = _case(name)
    _assert_tensorflows_outputs(hloscope.compile(hloscope.parse_hlo(text), backend="cpu", cache=False)(*args), name)


@pytest.mark.parametrize("name", NAMES)
def test_tensorflow_stablehlo_evaluates_and_compiles_to_tensorflows_outputs(name):
    """The same function as TensorFlow prints it in StableHLO (stage="stablehlo"), legalized
    by hloscope: its parameters and results are the HLO's."""
    module = hloscope.parse_hlo((ROOT / f"{name}.stablehlo.mlir").read_text())
    module.verify()
    _, args, _, _ = _case(name)
    _assert_tensorflows_outputs(hloscope.evaluate(module, *args), name)
    _assert_tensorflows_outputs(hloscope.compile(module, backend="cpu", cache=False)(*args), name)


@pytest.mark.parametrize("name", NAMES)
def test_explore_tensorflow_hlo(name):
    pytest.importorskip("ipywidgets")
    text, args, _, _ = _case(name)
    ex = hloscope.explore(text, *args)
    try:
        assert ex.errors == [], ex.errors
        record = ex.report
        assert record.done
        if record.failed:  # a stage that failed is shown, not raised: raise its error here
            raise record.failed[0].error or AssertionError(f"stage {record.failed[0].name} failed")
        assert record.stage("run").status in ("done", "cached")
        _assert_tensorflows_outputs(record.outputs, name)
    finally:
        ex.close()


# --- the auto-clustered program's XLA dump -------------------------------------------------------------

CLUSTERS = find_modules(DUMP)


def test_the_dump_holds_one_module_per_cluster():
    recorded = MANIFEST["autoclustered_dump"]["modules"]
    assert len(recorded) >= 2, "the program is split in two clusters by a numpy_function"
    assert sorted(f"module_{m.id}.{m.name}" for m in CLUSTERS.values()) == sorted(recorded)
    assert all(m.name.startswith("cluster_") and m.backend == "cpu" for m in CLUSTERS.values())


@pytest.mark.parametrize("module_id", sorted(CLUSTERS))
def test_each_cluster_loads_in_the_xla_lens(module_id):
    files = CLUSTERS[module_id]
    c = hloscope.xla.load(DUMP, module=module_id)
    assert c.done and not c.failed and c.target == "xla:cpu"
    assert files.name in c.title and f"module {module_id}" in c.title
    assert c.records and len(c.records) == len(files.snapshots)
    assert any(r.changed for r in c.records)
    assert c.optimized_module is not None and c.optimized_module.is_scheduled
    assert c.xla_memory_total_bytes and c.xla_memory_total_bytes > 0  # TF's XLA: "Total bytes used: N"
    assert c.kernels, "XLA:CPU made a kernel per fusion"
    # XLA's optimized module computes what the cluster it was given computes
    rng = np.random.default_rng(0)
    shapes = c.input_module.entry_computation.parameter_shapes
    args = [rng.standard_normal(tuple(s.dims)).astype(np.float32) for s in shapes]
    want = _flat(hloscope.evaluate(c.input_module, *args))
    got = _flat(hloscope.evaluate(c.optimized_module, *args))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def test_explore_a_cluster():
    pytest.importorskip("ipywidgets")
    c = hloscope.xla.load(DUMP, module=sorted(CLUSTERS)[0])
    ex = hloscope.explore(c)
    try:
        assert ex.report is c and ex.errors == [] and ex.stepper is not None
    finally:
        ex.close()


def test_a_cluster_name_with_dots_is_read_from_the_files_that_say_where_it_ends(tmp_path):
    # TensorFlow's module and kernel names both hold dots, so `<name>.<kernel>.ir-no-opt.ll` alone
    # cannot say where the module's name ends; here the kernel's file sorts first
    name = "cluster_0__XlaCompiledKernel_true__XlaNumResourceArgs_0_.12"
    for suffix in ("add.1_kernel_module.ir-no-opt.ll", "obj-file.add.1_kernel_module.o",
                   "before_optimizations.txt", "cpu_after_optimizations.txt",
                   "cpu_after_optimizations-memory-usage-report.txt"):
        (tmp_path / f"module_0007.{name}.{suffix}").write_text("")
    (module,) = find_modules(tmp_path).values()
    assert (module.id, module.name, module.backend) == ("0007", name, "cpu")
    assert module.before is not None and module.optimized is not None and len(module.others) == 3
