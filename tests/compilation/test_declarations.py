"""Every stage declares what it makes (Stage.makes), and writes nothing else: the stage
driver checks after each stage, so running every table (the CPU's and the GPU's compile, a
session's run, the XLA lens, a what-if experiment, a compile-cache hit) is the test. What
reads the declarations: a cache hit copies what the stages it stands in for make, and a
what-if experiment reuses what the stages before its first changed option make."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import hloscope
from hloscope import session
from hloscope.compilation.record import STAGE_FIELDS, TRANSIENT, Compilation
from hloscope.compilation.sources import HloText
from hloscope.compilation.stages import Stage, UndeclaredWrite, made_by, run_stages
from hloscope.compiler import compile_table, new_compilation

TEXT = """HloModule m
ENTRY e {
  x = f32[16,32] parameter(0)
  m = f32[] constant(-inf)
  r = f32[16] reduce(x, m), dimensions={1}, to_apply=max
  b = f32[16,32] broadcast(r), dimensions={0}
  ROOT d = f32[16,32] subtract(x, b)
}
max {
  a = f32[] parameter(0)
  c = f32[] parameter(1)
  ROOT m = f32[] maximum(a, c)
}
"""


def _declared(table: list[Stage]) -> None:
    for stage in table:
        unknown = set(stage.makes) - set(STAGE_FIELDS)
        assert not unknown, f"stage {stage.name} declares fields the record does not have: {unknown}"


@pytest.mark.parametrize("backend", ["cpu", "gpu"])
def test_each_stage_of_a_compile_writes_only_what_it_declares(backend):
    c = new_compilation(TEXT, backend, cache=False) if backend == "cpu" else new_compilation(TEXT, backend, ptxas=False)
    table = compile_table(c)
    _declared(table)
    run_stages(c, table)  # raises UndeclaredWrite naming the stage and the field otherwise
    assert all(s.status == "done" for s in c.stages), [(s.name, s.status) for s in c.stages]
    assert all(getattr(c, f) in (None, []) for f in TRANSIENT), "what passes between stages is dropped on load"


def test_a_session_run_and_a_cache_hit_write_only_what_they_declare():
    x = np.random.default_rng(0).standard_normal((16, 32)).astype(np.float32)
    hloscope.compile_cache.clear()
    first = session.new(TEXT, inputs=[x])
    session.run(first)
    assert not first.failed and first.cache == "miss"
    again = session.new(TEXT, inputs=[x])
    session.run(again)
    assert again.cache == "memory" and not again.failed
    cached = [s.name for s in again.stages if s.status == "cached"]
    assert {"optimize", "lower", "load"} <= set(cached)
    hit = next(s for s in again.table if s.name == "cache")
    assert set(made_by(again.table, tuple(cached))) - set(TRANSIENT) <= set(hit.makes)  # what it copies
    assert again.optimized_module is first.optimized_module and again.kernels == first.kernels


def test_the_xla_lens_and_a_what_if_experiment_write_only_what_they_declare():
    load = hloscope.xla.load(Path(__file__).resolve().parents[1] / "xla_dumps" / "gelu_mlp")
    assert [s.status for s in load.stages] == ["done", "done"]
    exe = hloscope.compile(TEXT, cache=False)
    w = hloscope.whatif(exe, opt_level=0, run=False)
    status = {s.name: s.status for s in w.changed.stages}
    assert status["lower"] == "reused" and status["llvm-opt"] == "done"  # llvm-opt is the first to read opt_level
    assert w.rerun_from == "llvm-opt"


def test_an_undeclared_write_is_named():
    def sneaky(c: Compilation) -> str:
        c.kernels = []
        c.memory_plan = None
        c.llvm_ir = "; written behind the table's back"
        return ""

    c = Compilation(HloText("HloModule unused"))
    with pytest.raises(UndeclaredWrite, match=r"stage 'lower' wrote llvm_ir, which it does not declare"):
        run_stages(c, [Stage("lower", sneaky, makes=("kernels", "memory_plan"))])
    appended = Compilation(HloText("HloModule unused"))
    with pytest.raises(UndeclaredWrite, match="wrote checks"):  # a list a stage appends to counts too
        run_stages(appended, [Stage("run", lambda c: str(c.checks.append(None)))])
