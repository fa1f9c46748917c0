"""hloscope's printed HLO is accepted by XLA's own parser (jaxlib ships it)."""

from pathlib import Path

import numpy as np
import pytest

import hloscope as hs

pytest.importorskip("jax", reason="jax (the optional 'jax' extra) is not installed")
from jax._src.lib import xla_client  # noqa: E402

pytestmark = pytest.mark.jax

xla_hlo = xla_client.hlo

HERE = Path(__file__).parent
FILES = sorted((HERE / "corpus").glob("*.hlo")) + [p for p in sorted((HERE / "xla_dumps" / "gelu_mlp").glob("*.txt"))
                                                     if not p.name.endswith(("-buffer-assignment.txt", "-memory-usage-report.txt", "-live-range.txt"))]


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


TRACED = {
    "argsort": lambda x: np.argsort(x, axis=1),
    "sort of a flattened array": lambda x: np.sort(x, axis=None),
    "fori_loop": lambda x: hs.fori_loop(0, 3, lambda i, v: v * 0.5 + 1.0, x),
    "cond": lambda x: hs.cond(x.sum() > 0, lambda v: v * 2, lambda v: -v, x),
}


@pytest.mark.parametrize("name", list(TRACED))
def test_xla_parses_what_our_tracer_writes(name):
    """Sort comparators, loops and branches as the tracer writes them are XLA's syntax too."""
    ours = hs.jit(TRACED[name]).lower(np.ones((4, 6), np.float32))
    theirs = xla_hlo.hlo_module_from_text(ours.to_text())
    assert hs.parse_hlo(theirs.to_string()).instruction_count() == ours.instruction_count()


TOPK_CASES = sorted((HERE / "topk_cases").glob("*_smallest.hlo")) + sorted((HERE / "topk_cases").glob("*.compiled.hlo"))


@pytest.mark.parametrize("path", TOPK_CASES, ids=lambda p: p.name)
def test_xla_parses_our_topk_text(path):
    """`topk(x), k=K, largest=false` and custom-call TopK, as hloscope prints them."""
    ours = hs.parse_hlo(path.read_text())
    xla_text = xla_hlo.hlo_module_from_text(ours.to_text()).to_string()
    assert ("largest=false" in xla_text) == ("largest=false" in ours.to_text())  # XLA read our order
    assert hs.parse_hlo(xla_text).instruction_count() == ours.instruction_count()
