"""Equality and hashing of IR values agree: equal instructions and modules hash equal, so
sets and dict keys behave, and a module compares by content without being printed."""

from __future__ import annotations

from pathlib import Path

import pytest

import hloscope

CORPUS = Path(__file__).resolve().parent / "corpus"
TEXTS = sorted(CORPUS.glob("*.hlo"))


@pytest.mark.parametrize("path", TEXTS, ids=lambda p: p.name)
def test_parsing_twice_gives_equal_values_with_equal_hashes(path):
    a, b = (hloscope.parse_hlo(path.read_text()) for _ in range(2))
    assert a is not b and a == b and hash(a) == hash(b)
    for (_, x), (_, y) in zip(a.all_instructions(), b.all_instructions()):
        assert x is not y and x == y and hash(x) == hash(y)
    assert {x for _, x in a.all_instructions()} == {y for _, y in b.all_instructions()}


def test_a_changed_instruction_or_module_is_not_equal():
    module = hloscope.parse_hlo((CORPUS / "softmax.hlo").read_text())
    inst = module.entry_computation.root_instruction
    renamed = inst.replace(name=inst.name + ".x")
    assert renamed != inst and len({inst, renamed}) == 2
    other_meta = inst.replace(metadata=None)
    assert (other_meta == inst) == (inst.metadata is None)
    entry = module.entry_computation
    changed = module.with_computation(entry.replace(instructions=entry.instructions[:-1] + (renamed,),
                                                    root=renamed.name))
    assert changed != module and module != module.replace(name="other") and module != "HloModule"
    assert hloscope.optimize(module).module != module


def test_module_equality_does_not_print(monkeypatch):
    module = hloscope.parse_hlo((CORPUS / "layernorm.hlo").read_text())
    twin = hloscope.parse_hlo((CORPUS / "layernorm.hlo").read_text())
    monkeypatch.setattr(type(module), "to_text", lambda self, **k: pytest.fail("== printed the module"))
    assert module == twin
