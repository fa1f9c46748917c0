"""MLIR text given where HLO text is read: both forms and both dialects are read, and what
cannot be read or legalized is named, with line, column and caret in the MLIR text."""

from pathlib import Path

import numpy as np
import pytest

import hloscope
from hloscope.errors import HloParseError
from hloscope.stablehlo import read

RECORDED = sorted((Path(__file__).parent.parent / "library_models").glob("jax-*/*.stablehlo.mlir"))

GENERIC = '''"builtin.module"() <{sym_name = "jit_exp"}> ({
  "func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<4xf32>):
    %0 = "stablehlo.exponential"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%0) : (tensor<4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
'''

MHLO = '''// converted by an older exporter
module @m {
  func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
    %0 = mhlo.exponential %arg0 : tensor<4xf32>
    return %0 : tensor<4xf32>
  }
}
'''


def _pretty(body: str, arg: str = "tensor<4xf32>", result: str = "tensor<4xf32>") -> str:
    return (f"module @jit_f {{\n  func.func public @main(%arg0: {arg}) -> ({result}) {{\n{body}\n  }}\n}}\n")


@pytest.mark.parametrize("path", RECORDED[:4], ids=lambda p: p.name)
def test_parse_hlo_reads_the_stablehlo_jax_printed(path):
    module = hloscope.parse_hlo(path.read_text())
    module.verify()
    assert read(path.read_text()).summary().startswith("StableHLO MLIR (pretty form)")


def test_the_generic_form_and_mhlo_are_read_and_said():
    x = np.array([0.0, 1.0, -2.0, 0.5], np.float32)
    for text, dialect, form in ((GENERIC, "StableHLO", "generic"), (MHLO, "MHLO", "pretty")):
        reading = read(text)
        assert (reading.dialect, reading.form) == (dialect, form)
        np.testing.assert_allclose(hloscope.evaluate(hloscope.parse_hlo(text), x), np.exp(x), rtol=1e-6)
    assert read(GENERIC).module.name == "jit_exp"


def _error(text: str) -> HloParseError:
    with pytest.raises(HloParseError) as caught:
        hloscope.parse_hlo(text)
    return caught.value


def test_an_operation_hloscope_does_not_know_is_named_at_its_line():
    e = _error(_pretty("    %0 = stablehlo.all_gather %arg0, dim = 0 : (tensor<4xf32>) -> tensor<4xf32>\n"
                       "    return %0 : tensor<4xf32>"))
    assert "stablehlo.all_gather" in e.message and "not supported" in e.message
    assert (e.line, e.column) == (3, 5) and "all_gather" in e.source_line
    assert "^" in str(e)


def test_a_dynamic_shape_is_named():
    e = _error(_pretty("    return %arg0 : tensor<?xf32>", arg="tensor<?xf32>", result="tensor<?xf32>"))
    assert "dynamic dimension" in e.message and e.line == 2


def test_malformed_mlir_gets_line_column_and_caret():
    e = _error(_pretty("    %0 = stablehlo.add %arg0, %arg0 tensor<4xf32>\n    return %0 : tensor<4xf32>"))
    assert e.line == 3 and e.column > 20
    assert "tensor<4xf32>" in e.source_line


def test_a_value_used_before_it_is_defined_is_named():
    e = _error(_pretty("    %0 = stablehlo.add %arg0, %9 : tensor<4xf32>\n    return %0 : tensor<4xf32>"))
    assert "%9" in e.message and e.line == 3


def test_a_constant_kept_outside_the_text_is_named():
    e = _error(_pretty("    %0 = stablehlo.constant dense_resource<blob1> : tensor<4xf32>\n"
                       "    return %0 : tensor<4xf32>"))
    assert "dense_resource" in e.message and e.line == 3


def test_broken_hlo_text_keeps_its_own_error():
    with pytest.raises(HloParseError) as caught:
        hloscope.parse_hlo("HloModule m\nENTRY e {\n  ROOT p = f32[4] parameter(0\n}\n")
    assert "MLIR" not in caught.value.message
