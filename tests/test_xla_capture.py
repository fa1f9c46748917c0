"""hloscope.xla.capture: XLA compiles a function (through JAX) or HLO text with its per-pass
dumps asked for by that compile's own options, and the dump is read back into the record
every hloscope view reads: one step per snapshot file, modules that evaluate to JAX's outputs."""

from __future__ import annotations

import gc
import re
import sys
from pathlib import Path

import numpy as np
import pytest

jax = pytest.importorskip("jax")

from hloscope import evaluate  # noqa: E402 - after the skip
from hloscope.xla import XlaCaptureError, capture  # noqa: E402
from hloscope.xla.capture import import_jax  # noqa: E402
from xla_programs import gpt2_block_forward, mlp, mlp_args  # noqa: E402

pytestmark = pytest.mark.jax

SNAPSHOT = re.compile(r"^module_\d+\.(.+?)\.\d{4,}\.")


def snapshot_files(folder: Path, module_name: str) -> list[Path]:
    return sorted(p for p in folder.iterdir() if (m := SNAPSHOT.match(p.name)) and m.group(1) == module_name)


def flat(result) -> list[np.ndarray]:
    return [np.asarray(a) for a in jax.tree_util.tree_leaves(result)]


def assert_evaluates_to_jax(module, fn, args, rtol=1e-4, atol=1e-4):
    leaves = [np.asarray(a) for a in jax.tree_util.tree_leaves(args)]
    got = evaluate(module, *leaves)
    got = list(got) if isinstance(got, (tuple, list)) else [got]
    want = flat(jax.jit(fn)(*args))
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g), w, rtol=rtol, atol=atol)


@pytest.fixture(scope="module")
def mlp_capture(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mlp_dump")
    return capture(mlp, *mlp_args(), folder=folder), folder


@pytest.fixture(scope="module")
def gpt2_capture(tmp_path_factory):
    folder = tmp_path_factory.mktemp("gpt2_dump")
    fn, args = gpt2_block_forward()
    return capture(fn, *args, folder=folder), folder, fn, args


def test_mlp_capture_has_one_step_per_snapshot_file(mlp_capture):
    c, folder = mlp_capture
    files = snapshot_files(folder, "jit_mlp")
    assert c.source.module_name == "jit_mlp" and len(files) > 10
    assert len(c.records) == len(files)
    assert [r.doc.split()[-1] for r in c.records] == [p.name for p in files]
    assert c.target == "xla:cpu" and c.optimized_module is not None and c.xla_memory_total_bytes > 0


def test_mlp_capture_evaluates_to_jax_outputs_at_every_step(mlp_capture):
    c, _ = mlp_capture
    for module in [c.input_module, *(r.after for r in c.records), c.optimized_module]:
        assert_evaluates_to_jax(module, mlp, mlp_args())


def test_gpt2_block_capture_steps_and_outputs(gpt2_capture):
    c, folder, fn, args = gpt2_capture
    files = snapshot_files(folder, "jit_gpt2_block")
    assert len(c.records) == len(files) > 30
    assert any(r.name == "fusion" and r.changed for r in c.records)
    for module in [c.input_module, *(r.after for r in c.records), c.optimized_module]:
        assert_evaluates_to_jax(module, fn, args)  # fusions and XLA's library fusions included
    report = next(folder.glob("*jit_gpt2_block.cpu_after_optimizations-memory-usage-report.txt")).read_text()
    assert c.xla_memory_total_bytes == int(re.search(r"Total bytes: (\d+)", report).group(1))


def test_capture_of_hlo_text_compiles_it_with_xla(mlp_capture, tmp_path):
    c, _ = mlp_capture
    text = c.input_module.to_text()
    again = capture(text, folder=tmp_path)
    assert again.input_module.name == c.input_module.name
    assert len(again.records) == len(snapshot_files(tmp_path, "jit_mlp")) > 10
    assert any(r.name == "fusion" and r.changed for r in again.records)
    assert_evaluates_to_jax(again.input_module, mlp, mlp_args())


def test_capture_picks_the_module_it_compiled_in_a_folder_with_others(mlp_capture, tmp_path):
    def other(x):
        return x * 2.0

    capture(other, np.ones(4, np.float32), folder=tmp_path)
    c = capture(mlp, *mlp_args(), folder=tmp_path)
    assert c.source.module_name == "jit_mlp"
    names = {p.name.split(".")[1] for p in tmp_path.iterdir() if p.name.startswith("module_")}
    assert names >= {"jit_other", "jit_mlp"}


def test_a_temporary_dump_lives_as_long_as_its_record():
    c = capture(mlp, *mlp_args())
    folder = c.source.folder
    assert folder.is_dir() and any(folder.iterdir())
    del c
    gc.collect()
    assert not folder.exists()


def test_xla_refusing_the_program_is_a_clear_error():
    def bad(x):
        return x @ x  # f32[3] @ f32[4]: jax refuses while tracing

    with pytest.raises(XlaCaptureError, match="could not compile jit_bad"):
        capture(bad, np.ones((3, 4), np.float32))


def test_without_jax_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "jax", None)  # `import jax` raises ImportError
    with pytest.raises(XlaCaptureError, match=r"pip install 'hloscope\[jax\]'"):
        import_jax()
