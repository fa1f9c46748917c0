"""hloscope's legalization checked against XLA's own conversion of the same StableHLO: JAX's
`as_text(dialect="hlo")` is XLA's StableHLO -> HLO translation (recorded as NAME.hlo beside
NAME.stablehlo.mlir). Both modules take the same parameters and give the same result shapes,
and after hloscope's default pipeline ours is no bigger than XLA's but for a few
instructions: the legalization adds nothing the passes cannot clean up. (XLA's text is also
canonicalized by MLIR on the way, `x * 1` dropped and so on, so the unoptimized counts differ.)"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import hloscope
from hloscope.stablehlo import read

ROOT = Path(__file__).resolve().parents[1] / "library_models"
NEWEST = sorted(p.name for p in ROOT.glob("jax-*"))[-1]
NAMES = sorted(json.loads((ROOT / NEWEST / "manifest.json").read_text())["cases"])


def _signature(module: hloscope.HloModule) -> tuple:
    """Parameter and result shapes, layouts aside (XLA keeps a transposed result's layout)."""
    entry = module.entry_computation
    shapes = [str(p.shape) for p in entry.parameters] + [str(entry.root_instruction.shape)]
    return tuple(re.sub(r"\{[\d,]*\}", "", s) for s in shapes)


@pytest.mark.parametrize("name", NAMES)
def test_legalized_like_xlas_conversion(name):
    ours = read((ROOT / NEWEST / f"{name}.stablehlo.mlir").read_text()).module
    xlas = hloscope.parse_hlo((ROOT / NEWEST / f"{name}.hlo").read_text())
    assert _signature(ours) == _signature(xlas)
    ours_optimized = hloscope.optimize(ours).optimized_module.instruction_count()
    xlas_optimized = hloscope.optimize(xlas).optimized_module.instruction_count()
    assert ours_optimized <= 1.1 * xlas_optimized + 2, (ours_optimized, xlas_optimized)
