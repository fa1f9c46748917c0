"""MLIR text (what JAX prints by default) given to the HLO parser: the error names it, its
dialect and form, and the call that prints HLO text instead, with line, column and caret."""

from pathlib import Path

import pytest

import hloscope
from hloscope.errors import HloParseError

RECORDED = sorted((Path(__file__).parent / "library_models").glob("jax-*/*.stablehlo.mlir"))

GENERIC = '''"builtin.module"() ({
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


@pytest.mark.parametrize("path", RECORDED[:6], ids=lambda p: p.name)
def test_stablehlo_that_jax_printed_is_named(path):
    with pytest.raises(HloParseError) as caught:
        hloscope.parse_hlo(path.read_text())
    e = caught.value
    assert "StableHLO MLIR text (pretty form)" in e.message and "as_text(dialect='hlo')" in e.message
    assert (e.line, e.column) == (1, 1) and e.source_line.startswith("module @")


def test_the_generic_form_and_mhlo_are_named_too():
    with pytest.raises(HloParseError, match=r"StableHLO MLIR text \(generic form\)"):
        hloscope.parse_hlo(GENERIC)
    with pytest.raises(HloParseError, match=r"MHLO MLIR text \(pretty form\)") as caught:
        hloscope.parse_hlo(MHLO)
    assert caught.value.line == 2  # the comment above it is skipped


def test_broken_hlo_text_keeps_its_own_error():
    with pytest.raises(HloParseError) as caught:
        hloscope.parse_hlo("HloModule m\nENTRY e {\n  ROOT p = f32[4] parameter(0\n}\n")
    assert "MLIR" not in caught.value.message
