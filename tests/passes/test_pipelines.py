"""The pipeline machinery as the passes use it: the registry of named pipelines, the
"changed" flag, verification that names the pass, user passes, and fixed-point caps."""

from __future__ import annotations

import pytest

from hloscope import parse_hlo
from hloscope.ir.shape import ArrayShape
from hloscope.passes.dce import DeadCodeElimination
from hloscope.passes.pipeline import HloPass, PassError, Pipeline
from hloscope.passes.pipelines import pipelines, simplification

TEXT = """HloModule m

ENTRY %main (x: f32[4]) -> f32[4] {
  %x = f32[4] parameter(0)
  %zero = f32[] constant(0)
  %zeros = f32[4] broadcast(%zero), dimensions={}
  %a = f32[4] add(%x, %zeros)
  %b = f32[4] exponential(%a)
  ROOT %c = f32[4] negate(%b)
}
"""


class Rebuild(HloPass):
    """Rebuilds every computation from the same instructions: a change in form only."""

    name = "rebuild"

    def run(self, module, log):
        comps = tuple(c.replace(instructions=list(c.instructions)) for c in module.computations)
        return module.replace(computations=comps)


class BreakShapes(HloPass):
    """Gives the ROOT a wrong shape, so the verifier must object."""

    name = "break-shapes"

    def run(self, module, log):
        entry = module.entry_computation
        bad = [i.replace(shape=ArrayShape("f32", (5,))) if i.name == entry.root else i for i in entry]
        return module.with_computation(entry.replace(instructions=bad))


class Rename(HloPass):
    """Always changes something (renames the module), so a fixed point never settles."""

    name = "rename"

    def run(self, module, log):
        log.add("renamed", module.name, "to keep the pipeline busy")
        return module.replace(name=module.name + "_")


def test_registry_names_and_fresh_copies():
    assert {"default", "simplify", "none"} <= set(pipelines)
    a, b = pipelines["simplify"], pipelines["simplify"]
    assert a is not b and a.pass_names() == b.pass_names()
    a.passes.clear()
    assert pipelines["simplify"].pass_names()  # editing a copy leaves the registry alone


def test_simplify_pipeline_shape():
    names = pipelines["simplify"].pass_names()
    assert names[0] == "call-inliner"
    assert {"algsimp", "dce", "cse", "constant_folding", "tuple-simplifier", "reshape-mover"} <= set(names)
    assert names.index("reshape-mover") < len(names) - 1  # simplification runs again after it
    assert pipelines["none"].pass_names() == []


def test_unknown_pipeline_name_lists_the_known_ones():
    with pytest.raises(KeyError, match="simplify"):
        pipelines["fastest"]


def test_without_removes_at_every_depth():
    p = pipelines["simplify"].without("cse")
    assert "cse" not in p.pass_names()
    assert "cse" in pipelines["simplify"].pass_names()


def test_registering_a_pipeline():
    pipelines.register("just-dce", lambda: Pipeline("just-dce", [DeadCodeElimination()]))
    try:
        assert pipelines["just-dce"].pass_names() == ["dce"]
    finally:
        pipelines._factories.pop("just-dce")


def test_changed_is_decided_by_comparing_modules():
    module = parse_hlo(TEXT)
    records = []
    after = Pipeline("p", [Rebuild()]).run(module, records)
    assert not records[0].changed and after is module


def test_verifier_error_names_the_pass():
    with pytest.raises(PassError, match="break-shapes"):
        Pipeline("p", [BreakShapes()]).run(parse_hlo(TEXT))


class NeedsValidShapes(HloPass):
    """Fails on a module whose ROOT has the wrong shape, as a pass assuming valid input may."""

    name = "needs-valid-shapes"

    def run(self, module, log):
        entry = module.entry_computation
        assert entry[entry.root].shape == entry[entry.root.replace("c", "b")].shape, "shapes disagree"
        return module.replace(name=module.name + "_")


def test_the_pass_that_broke_the_module_is_named_not_the_one_that_tripped_on_it():
    """The passes run unchecked first; on a failure they run again, verified one by one."""
    records = []
    with pytest.raises(PassError, match="pass break-shapes produced an invalid module"):
        Pipeline("p", [Rename(), BreakShapes(), NeedsValidShapes()]).run(parse_hlo(TEXT), records)
    assert [r.name for r in records] == ["rename"]  # the checked run's records, up to the bad pass


def test_the_result_is_verified_once(monkeypatch):
    from hloscope.ir.module import HloModule

    calls = []
    verify = HloModule.verify
    monkeypatch.setattr(HloModule, "verify", lambda self: (calls.append(self.name), verify(self))[1])
    after = Pipeline("p", [Rename(), Rename(), Pipeline("inner", [Rename(), Rename()])]).run(parse_hlo(TEXT))
    assert calls == [after.name] == ["m____"]


def test_user_pass_inserted_from_test_code_appears_in_records():
    p = pipelines["simplify"].inserted(Rebuild(), after="reshape-mover")
    records = []
    p.run(parse_hlo(TEXT), records)
    names = [r.name for r in records]
    assert names.index("rebuild") == names.index("reshape-mover") + 1


def test_fixed_point_stops_at_its_cap():
    records = []
    Pipeline("loop", [Rename()], fixed_point=True, max_iterations=3).run(parse_hlo(TEXT), records)
    assert [r.iteration for r in records] == [0, 1, 2]


def test_fixed_point_stops_when_nothing_changes():
    records = []
    simplification().run(parse_hlo(TEXT), records)
    iterations = {r.iteration for r in records}
    assert iterations == {0, 1}  # one round that changes things, one that confirms
    assert not any(r.changed for r in records if r.iteration == 1)
