"""The kernel-strategy pass: each instruction's kernel is chosen before memory planning and
recorded, and the code the lowering makes is what the record says.

Checked on JAX's own programs (the corpus, library models with convolutions, scatters,
loops) under the options that change the choice: the annotation the pass wrote into each
instruction is the kind of the kernels the report lists for it."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

import hloscope
from hloscope.backend.cpu.kernel_strategy import KernelStrategy
from hloscope.ir.attributes import Raw
from hloscope.passes.record import DecisionLog

TESTS = Path(__file__).resolve().parents[1]
CORPUS = sorted(p for p in (TESTS / "corpus").glob("*.hlo") if not p.name.endswith(".opt.hlo"))
MODELS = [TESTS / "library_models" / "jax-0.12.0.1" / f"{name}.hlo"
          for name in ("keras_conv_batchnorm", "keras_ctc_loss", "flax_lstm")]
OPTIONS = [{}, {"library": False}, {"dot": "loops"}]
# A kernel's kind as the report shows it -> the strategy that made it (one strategy may make
# a kernel per chunk and a combining one).
MADE_BY = {"library-reduce-partials": "library-reduce", "library-reduce-combine": "library-reduce",
           "reduce-combine": "reduce-partials"}


def annotations(module) -> dict[str, str]:
    """instruction -> the kernel the pass chose (unannotated ones are plain loops)."""
    found = {}
    for comp in module.computations:
        for inst in comp.instructions:
            config = inst.attr("backend_config")
            fields = config.json() if isinstance(config, Raw) else None
            if isinstance(fields, dict) and "kernel" in fields:
                found[inst.name] = fields["kernel"]
    return found


def strategy_record(report):
    (record,) = [r for r in report.records if r.name == "kernel-strategy"]
    return record


def made(kinds: list[str]) -> str:
    named = [MADE_BY.get(k, k) for k in kinds]
    return "+".join(k for i, k in enumerate(named) if i == 0 or named[i - 1] != k)


@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
@pytest.mark.parametrize("path", CORPUS + MODELS, ids=lambda p: p.stem)
def test_the_code_is_what_the_kernel_strategy_record_says(path, options):
    report = hloscope.compile(path.read_text(), **options).report
    record = strategy_record(report)
    chosen = annotations(record.after)
    by_instruction: dict[str, list[str]] = defaultdict(list)
    for kernel in report.kernels:
        by_instruction[kernel.instruction].append(kernel.kind)
    assert by_instruction, "the module has kernels"
    for inst, kinds in by_instruction.items():
        assert chosen.get(inst, "loop") == made(kinds), (inst, kinds)
    assert not [d for d in record.log if d.action == "undecided"]
    assert record.after is report.optimized_module or annotations(report.optimized_module) == chosen


def test_softmax_records_its_row_program_with_the_reason_and_the_way_back_to_loops():
    record = strategy_record(hloscope.compile((TESTS / "corpus" / "softmax.hlo").read_text()).report)
    assert record.changed and record.pipeline == "cpu-lowering"
    first = record.log[0]
    assert first.action == "chose row-program" and "precompiled row interpreter" in first.reason
    assert "library=False: plain loops" in first.reason
    plain = strategy_record(hloscope.compile((TESTS / "corpus" / "softmax.hlo").read_text(), library=False).report)
    assert set(annotations(plain.after).values()) == {"reduce"}  # the two row reductions as loops of their own


def test_an_existing_backend_config_keeps_its_fields_and_an_opaque_one_is_left_alone():
    text = """HloModule m
    ENTRY e {
      p = f32[4096,64] parameter(0)
      c = f32[] constant(0)
      ROOT r = f32[4096] reduce(p, c), dimensions={1}, to_apply=add, backend_config={"outer_dimension_partitions":["2"]}
    }
    add { a = f32[] parameter(0)  b = f32[] parameter(1)  ROOT s = f32[] add(a, b) }"""
    module = hloscope.parse_hlo(text)
    after = KernelStrategy().run(module, DecisionLog())
    root = after.entry_computation.root_instruction
    assert root.attr("backend_config").json() == {"outer_dimension_partitions": ["2"], "kernel": "library-reduce"}
    opaque = hloscope.parse_hlo(text.replace('{"outer_dimension_partitions":["2"]}', '"opaque"'))
    log = DecisionLog()
    kept = KernelStrategy().run(opaque, log)
    assert kept.entry_computation.root_instruction.attr("backend_config") == Raw('"opaque"')
    assert [d.action for d in log.entries] == ["chose library-reduce"]
