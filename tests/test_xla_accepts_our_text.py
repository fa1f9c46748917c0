"""hloscope's printed HLO is accepted by XLA's own parser (jaxlib ships it)."""

from pathlib import Path

import pytest

import hloscope as hs

pytest.importorskip("jax", reason="jax (the optional 'jax' extra) is not installed")
from jax._src.lib import xla_client  # noqa: E402

xla_hlo = xla_client.hlo

HERE = Path(__file__).parent
FILES = sorted((HERE / "corpus").glob("*.hlo")) + sorted((HERE / "xla_dumps" / "gelu_mlp").glob("*.txt"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_xla_parses_what_we_print(path):
    ours = hs.parse_hlo(path.read_text())
    theirs = xla_hlo.hlo_module_from_text(ours.to_text())
    # XLA's reading of our text has the same instructions as ours.
    xla_text = theirs.to_string()
    assert hs.parse_hlo(xla_text).instruction_count() == ours.instruction_count()


def test_xla_rejects_what_we_reject_too():
    bad = "HloModule m\nENTRY e {\n  ROOT a = f32[2] foo(f32[2] b)\n}\n"
    with pytest.raises(hs.HloParseError):
        hs.parse_hlo(bad)
    with pytest.raises(Exception):
        xla_hlo.hlo_module_from_text(bad)
