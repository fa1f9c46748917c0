"""%%hlo with what a JAX user brings: StableHLO text as JAX prints it, and JAX code (--jax,
or recognised by its use of jax). The legalization is the first stage; instructions keep the
cell's lines."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from hloscope.viz.ir_text import LEGALIZATION, STABLEHLO, available_views, view_html

pytest.importorskip("jax")

EQX_MLP = Path(__file__).resolve().parents[1] / "library_models" / "jax-0.12.0.1" / "eqx_mlp"

JAX_CELL = '''%%hlo --jax gelu_layer(x, w)
import jax.numpy as jnp
def gelu_layer(x, w):
    h = x @ w
    return jax.nn.gelu(h)
'''


def test_a_stablehlo_cell_is_legalized_and_runs_on_its_args(run, shell):
    data = np.load(f"{EQX_MLP}.npz")
    shell.user_ns.update({f"a{i}": data[f"arg{i}"] for i in range(7)})
    result, out = run("%%hlo --args " + ",".join(f"a{i}" for i in range(7)) + "\n"
                      + Path(f"{EQX_MLP}.stablehlo.mlir").read_text())
    assert result.success, out
    report = shell.user_ns["hlo_report"]
    assert report.done and not report.failed, report.summary()
    assert report.stages[0].name == "legalize StableHLO to HLO"
    assert "StableHLO MLIR (pretty form)" in report.stages[0].note
    np.testing.assert_allclose(np.asarray(report.outputs), data["out0"], rtol=1e-5, atol=1e-5)
    assert {STABLEHLO, LEGALIZATION} <= set(available_views(report))
    table = view_html(report, LEGALIZATION, None)
    assert "stablehlo.dot_general" in table and "%dot." in table


def test_a_jax_cell_is_lowered_by_jax_and_keeps_the_cells_lines(run, shell):
    shell.user_ns.update(x=np.linspace(-2, 2, 24, dtype=np.float32).reshape(4, 6),
                         w=np.full((6, 3), 0.25, np.float32))
    run("import jax")
    result, out = run(JAX_CELL)
    assert result.success, out
    report = shell.user_ns["hlo_report"]
    assert report.done and not report.failed, report.summary()
    assert report.source.kind == "jax" and "jax.jit(gelu_layer).lower" in report.stages[0].note
    import jax

    want = jax.nn.gelu(shell.user_ns["x"] @ shell.user_ns["w"])
    np.testing.assert_allclose(np.asarray(report.outputs), np.asarray(want), rtol=1e-5, atol=1e-6)
    lines = {i.metadata.source_line for _, i in report.input_module.all_instructions()
             if i.opcode == "dot" and i.metadata}
    assert lines == {4}  # the cell's `h = x @ w`, numbered as the notebook numbers it


def test_a_jax_function_is_recognised_without_the_flag(run, shell):
    shell.user_ns.update(v=np.arange(5, dtype=np.float32))
    result, out = run("%%hlo sq(v)\nimport jax.numpy as jnp\ndef sq(v):\n    return jnp.cumsum(v * v)\n")
    assert result.success, out
    report = shell.user_ns["hlo_report"]
    assert report.source.kind == "jax"
    np.testing.assert_allclose(np.asarray(report.outputs), np.cumsum(np.arange(5.0) ** 2), rtol=1e-6)
