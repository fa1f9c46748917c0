"""XLA's own parser reads hloscope's printed convolutions (dim_labels, window, group counts)
the way hloscope does: printed back by XLA and parsed again, the attributes are the same."""

from pathlib import Path

import pytest

import hloscope as hs

pytest.importorskip("jax", reason="jax (the optional 'jax' extra) is not installed")
from jax._src.lib import xla_client  # noqa: E402

pytestmark = pytest.mark.jax

CASES = sorted((Path(__file__).parent / "conv_cases").glob("*.hlo"))
EXTRA = """HloModule m

ENTRY e {
  a = f32[1,9,9,4] parameter(0)
  b = f32[3,3,2,6] parameter(1)
  ROOT c = f32[1,7,2,6] convolution(a, b), window={size=3x3 stride=2x4 pad=1_-1x2_1 lhs_dilate=2x1 rhs_dilate=2x3 rhs_reversal=1x0}, dim_labels=b01f_01io->b01f, feature_group_count=2
}
"""


def _root(module):
    return module.entry_computation.root_instruction


@pytest.mark.parametrize("text", [p.read_text() for p in CASES] + [EXTRA], ids=[p.stem for p in CASES] + ["all_fields"])
def test_xla_reads_our_convolutions_as_we_do(text):
    ours = hs.parse_hlo(text).verify()
    theirs = hs.parse_hlo(xla_client.hlo.hlo_module_from_text(ours.to_text()).to_string())
    mine, xla = _root(ours), _root(theirs)
    for key in ("window", "dim_labels", "feature_group_count", "batch_group_count"):
        assert mine.attr(key) == xla.attr(key), key
    assert mine.shape == xla.shape
