"""memory_at_peak sums to the peak on every module of the real-model corpus (tests/models,
tests/corpus): hloscope's plan of its optimized module, hloscope's plan of XLA's optimized
module (NAME.opt.hlo), and XLA's own buffer assignment of the real models (through JAX)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_at_peak import assert_sums

import hloscope
from hloscope import parse_hlo
from hloscope.memory import plan_memory
from hloscope.memory.at_peak import memory_at_peak, position_totals

TESTS = Path(__file__).resolve().parents[1]
INPUTS = sorted(p for d in ("models", "corpus") for p in (TESTS / d).glob("*.hlo") if not p.name.endswith(".opt.hlo"))
MODELS = sorted(p for p in (TESTS / "models").glob("*.hlo") if not p.name.endswith(".opt.hlo"))


def test_the_corpus_is_there():
    assert len(INPUTS) >= 30 and len(MODELS) >= 16


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_hloscopes_plan_sums_to_its_peak(path):
    result = hloscope.optimize(parse_hlo(path.read_text()))
    plan = result.memory_plan
    assert plan is not None
    assert_sums(plan, result.module)
    # the arena's share of the peak is the plan's reported most-live arena bytes (parameters
    # live through the whole call, so they do not move the peak here)
    assert memory_at_peak(plan, result.module).arena_bytes == plan.min_bytes


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_hloscopes_plan_of_xlas_optimized_module_sums_to_its_peak(path):
    optimized = path.with_suffix(".opt.hlo")
    module = parse_hlo(optimized.read_text())
    assert_sums(plan_memory(module), module)


@pytest.mark.jax
@pytest.mark.parametrize("path", MODELS, ids=lambda p: p.stem)  # about half a second each
def test_xlas_buffer_assignment_sums_to_its_peak(path, tmp_path):
    """XLA compiles the model with its dumps on; the rows of its buffer assignment sum to the
    peak. At the position XLA's own dump names, the plan holds the values XLA lists there,
    each buffer once (XLA adds up values: two that take one buffer in turn and touch there
    count twice), plus constants XLA gives no live range (the plan keeps those live
    throughout)."""
    c = hloscope.xla.capture(path.read_text(), folder=tmp_path)
    plan = c.memory_plan
    assert plan is not None and plan.live_peak_position is not None
    assert_sums(plan, c.module)
    dump = next(tmp_path.rglob("*live-range.txt")).read_text()
    listed = {name.removesuffix("{}"): int(size)  # named as the plan's values: `name`, `name{1}`
              for name, size in re.findall(r"^    (\S+): (\d+) bytes \(cumulative", dump, re.M)}
    here = plan.live_peak_position
    live = plan.live_at(here)
    held = [[listed[v] for v in b.values if v in listed] for b in live]
    assert sum(map(len, held)) == len(listed)  # every value XLA lists is in a buffer live there
    assert all(b.kind == "constant" and f"{b.name}{{}}:" not in dump for b, h in zip(live, held) if not h)
    assert position_totals(plan)[here] == sum(max(h) if h else b.size for b, h in zip(live, held))
    assert plan.live_peak_bytes == sum(listed.values())
    assert memory_at_peak(plan, c.module).total_bytes >= position_totals(plan)[here]
