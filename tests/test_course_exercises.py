"""Every exercise of the course, judged the way a learner meets it: the answer left as `...`
says `not answered yet`, a right answer gets ✓, and a wrong one gets ✗ with a line that does
not contain the right answer. Driven by one table (notebook, exercise, the check called with an
answer, a right answer, a wrong one, the texts a wrong verdict must not show). Notebooks 11 and
12 have their own tests (tests/test_teaching_xla_dump.py, tests/autodiff_views/).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, Callable

import numpy as np
import pytest

import hloscope
from hloscope.passes.naming import NameUniquer
from hloscope.passes.pipeline import HloPass
from hloscope.passes.rewrite import Rewriter, map_computations
from hloscope.teaching import asking_why, auto_clustering, cleaning_up, frameworks, fusion, gpu_launch, hello_hlo, hlo_semantics
from hloscope.teaching import jit_cache, lazy_tensors, llvm_code, many_devices, memory_planning, vs_xla, write_a_pass
from hloscope.teaching.running_example import block_inputs, transformer_block

# --- what the notebooks build before their exercises (the same programs, made small) -------------

rng = np.random.default_rng(0)
X46 = rng.standard_normal((4, 6)).astype(np.float32)


def softmax(x):
    m = x.max(axis=1, keepdims=True)
    e = np.exp(x - m)
    return e / e.sum(axis=1, keepdims=True)


WASTEFUL = """
HloModule cleanup

ENTRY main {
  x = f32[8,16] parameter(0)
  two = f32[] constant(2)
  three = f32[] constant(3)
  six = f32[] multiply(two, three)
  six_b = f32[8,16] broadcast(six), dimensions={}
  zero = f32[] constant(0)
  zero_b = f32[8,16] broadcast(zero), dimensions={}
  one = f32[] constant(1)
  one_b = f32[8,16] broadcast(one), dimensions={}
  x_plus_0 = f32[8,16] add(x, zero_b)
  e1 = f32[8,16] exponential(x_plus_0)
  e2 = f32[8,16] exponential(x)
  unused = f32[8,16] tanh(x)
  e1_times_1 = f32[8,16] multiply(e1, one_b)
  sum = f32[8,16] add(e1_times_1, e2)
  nn = f32[8,16] negate(sum)
  n2 = f32[8,16] negate(nn)
  ROOT out = f32[8,16] multiply(n2, six_b)
}
"""


def four_sums(x):
    a, b, c, d = np.exp(x), np.sin(x), np.cos(x), np.tanh(x)
    return a.sum(axis=1) + b.sum(axis=1) + c.sum(axis=1) + d.sum(axis=1)


@cache
def four_sums_context():
    x = np.zeros((256, 256), np.float32)
    traced = hloscope.jit(four_sums).lower(x)
    no_fusion = hloscope.pipelines["default"].without("fusion", "multi_output_fusion")
    good = hloscope.optimize(traced, no_fusion).memory_plan
    unscheduled = hloscope.optimize(traced, no_fusion.without("hlo-memory-scheduler")).module
    return unscheduled, good.peak_bytes


def scheduler_like_order(unscheduled) -> list[str]:
    """Each big array summed right after it is made, each row sum added in at once."""
    names = [i.name for i in unscheduled.entry_computation.post_order()]
    entry = unscheduled.entry_computation
    done: list[str] = []
    pending = list(names)
    while pending:  # a greedy order: prefer an instruction that lets a big value die
        ready = [n for n in pending if all(o in done for o in entry[n].operands)]
        best = min(ready, key=lambda n: (entry[n].opcode in ("exponential", "sine", "cosine", "tanh"), pending.index(n)))
        done.append(best)
        pending.remove(best)
    return done


def partial_sums_pile_up(unscheduled) -> list[str]:
    """Each big array summed at once, but every add left to the end: the 1 KiB sums pile up."""
    entry = unscheduled.entry_computation
    order = [i.name for i in entry.post_order()]
    adds = [n for n in order if entry[n].opcode == "add"]
    rest = [n for n in order if n not in adds]
    heads = [n for n in rest if entry[n].opcode not in ("reduce",)]
    reduces = [n for n in rest if entry[n].opcode == "reduce"]
    big = [n for n in heads if entry[n].opcode in ("exponential", "sine", "cosine", "tanh")]
    other = [n for n in heads if n not in big]
    interleaved = [n for b in big for n in (b, next(r for r in reduces if b in entry[r].operands))]
    return other + interleaved + adds


@cache
def llvm_context():
    x = np.zeros((64, 64), np.float32)
    module = hloscope.jit(lambda x: np.exp(x) * 2.0 + 1.0).lower(x)
    irs = {level: hloscope.compile(module, opt_level=level, threads=1).report.optimized_llvm_ir for level in range(4)}
    return irs, hloscope.compile(module, threads=1).report.llvm_ir


@cache
def cache_info():
    def normalize(x, eps):
        return x / (np.sqrt((x * x).mean(axis=-1, keepdims=True)) + eps)

    f = hloscope.jit(normalize)
    a = np.ones((8, 16), np.float32)
    for args in [(a, 1e-6), (a, 1e-5), (a.T, 1e-6), (a.astype(np.float16), 1e-6),
                 (np.zeros((8, 16), np.float32), 1e-6), (a, np.float32(1e-6))]:
        f(*args)
    return f.cache_info()


def gelu(x):
    return 0.5 * x * (1 + np.tanh(0.7978845608 * (x + 0.044715 * x**3)))


@cache
def gpu_kernels():
    big = np.ones((1000, 1000), np.float32)
    g = hloscope.compile(hloscope.jit(gelu).lower(big), backend="gpu", block_size=128, ptxas=False)
    r = hloscope.compile(hloscope.jit(lambda x: x.sum(axis=1)).lower(np.ones((64, 100), np.float32)),
                         backend="gpu", ptxas=False)
    return g.report.kernels[0], r.report.kernels[0]


@dataclass
class SubtractOfNegate(HloPass):
    """The notebook's answer: a - (-b) = a + b."""

    name = "subtract-of-negate"
    forget_keep: bool = False
    keep_subtract: bool = False

    def run(self, module, log):
        names = NameUniquer.for_module(module)

        def rewrite(comp):
            rw = Rewriter(comp, names)
            for inst in rw.sweep():
                negated = rw.get(inst.operands[1]) if inst.opcode == "subtract" else None
                if negated is None or negated.opcode != "negate":
                    if not self.forget_keep:
                        rw.keep(inst)
                    continue
                opcode = "subtract" if self.keep_subtract else "add"
                total = rw.add(opcode, inst.shape, [inst.operands[0], negated.operands[0]])
                rw.replace(inst, total)
                log.add("rewrote", inst.name, "a - (-b) = a + b", target=total, rule="subtract_of_negate",
                        computation=comp.name)
            return rw.finish()

        return map_computations(module, rewrite)


@cache
def pass_test_module():
    x, y = rng.standard_normal((2, 64, 64)).astype(np.float32)
    return hloscope.jit(lambda x, y: np.tanh(x - (-y)) - (-(x * y))).lower(x, y)


def right_fusion_kinds(module):
    kinds: dict[str, int] = {}
    for inst in module.entry_computation:
        if inst.opcode == "fusion":
            kinds[inst.attr("kind")] = kinds.get(inst.attr("kind"), 0) + 1
    return kinds


def every_computation_fusion_kinds(module):
    kinds: dict[str, int] = {}
    for _, inst in module.all_instructions():
        if inst.opcode == "fusion":
            kinds[inst.attr("kind")] = kinds.get(inst.attr("kind"), 0) + 1
    return kinds


@cache
def vs_xla_modules():
    from hloscope.teaching import repo_path

    corpus = repo_path("tests", "corpus")
    read = lambda name: hloscope.parse_hlo((corpus / f"{name}.opt.hlo").read_text())  # noqa: E731
    mlp = hloscope.optimize(hloscope.parse_hlo((corpus / "gelu_mlp.hlo").read_text())).module
    return {"XLA's softmax": read("softmax"), "XLA's layernorm": read("layernorm"), "hloscope's gelu_mlp": mlp}


def two_layers(x, w1, w2, b):
    hidden = np.maximum(x @ w1, 0.0)
    return hidden @ w2 + b


@cache
def two_layer_clusters():
    r = np.random.default_rng(0)
    x, w = r.standard_normal((4, 3)).astype(np.float32), r.standard_normal((3, 5)).astype(np.float32)
    w2, b2 = r.standard_normal((5, 2)).astype(np.float32), r.standard_normal(2).astype(np.float32)
    return [c.ops for c in hloscope.autojit(two_layers, supported_ops={"dot", "add"}).clusters(x, w, w2, b2)]


@cache
def lazy_diff():
    import hloscope.lazy as lz

    lz.reset_metrics()
    lz.clear_cache()
    w = lz.tensor(np.ones((8, 1), np.float32), requires_grad=True)
    for n in (32, 16):
        x, y = lz.tensor(np.ones((n, 8), np.float32)), lz.tensor(np.zeros((n, 1), np.float32))
        loss = np.mean((x @ w - y) ** 2)
        loss.backward()
        with lz.no_grad():
            w -= 0.1 * w.grad
        w.grad = None
        lz.mark_step()
    misses = [s for s in lz.steps() if not s.cache_hit]
    return lz.diff_steps(misses[0], misses[1])


@cache
def front_end_compiles():
    """Notebook 15's four calls (x, 2x, 8 rows, x) through each front end, compiles counted."""
    import hloscope.lazy as lz

    x, params = block_inputs()
    calls = [x, 2 * x, x[:8], x]
    jitted = hloscope.jit(transformer_block)
    ops = {op for c in hloscope.autojit(transformer_block).clusters(x, params) for op in c.ops}
    clustered = hloscope.autojit(transformer_block, supported_ops=ops - {"tanh"})
    lz.reset_metrics()
    lz.clear_cache()
    lazy_params = tuple(lz.tensor(p) for p in params)
    for a in calls:
        jitted(a, params)
        clustered(a, params)
        out = transformer_block(lz.tensor(a), lazy_params)  # kept alive: mark_step computes live tensors
        lz.mark_step()
        assert out.numpy().shape == a.shape
    return {"jit": jitted.cache_info().misses, "autojit": clustered.cache_info().misses,
            "lazy": lz.metrics()["compiles"]}


# --- the table ----------------------------------------------------------------------------------

def w1_columns_log():
    """Notebook 16's exercise: the partition log of the step with only w1 split by columns."""
    module = hloscope.jit(many_devices.training_step).lower(*many_devices.step_inputs())
    return many_devices.partitioned(module, {"w1": (None, "model")})[2]


@dataclass
class Case:
    notebook: str
    exercise: str
    check: Callable[[Any], None]
    right: Any
    wrong: Any
    secrets: tuple[str, ...] = ()  # texts of the right answer that a ✗ line must not show
    blank: Any = ...  # the answer as the notebook ships it


def lazy(fn: Callable[..., None], *context: Callable[[], Any]) -> Callable[[Any], None]:
    """The check `fn(*contexts, answer)`, with each context built on first use."""
    return lambda answer: fn(*(c() for c in context), answer)


CASES = [
    Case("01", "relu_row_sums", hello_hlo.check_relu_row_sums,
         lambda x: np.where(x > 0, x, 0).sum(axis=1), lambda x: np.maximum(x, 0).sum(axis=0), ("maximum(x, 0)",)),
    Case("01", "relu_row_sums without the ReLU", hello_hlo.check_relu_row_sums,
         lambda x: np.clip(x, 0, None).sum(axis=1), lambda x: x.sum(axis=1), ("maximum(x, 0)",)),
    Case("01", "number of reduces", lazy(hello_hlo.check_reduce_count, lambda: hloscope.jit(softmax).lower(X46)),
         2, 3, ("2",)),
    Case("02", "scale_columns", hlo_semantics.check_scale_columns, "1", "0", ("={1}", "dimension 1")),
    Case("02", "pairwise", hlo_semantics.check_pairwise, ("0", "0", "2", "2"), ("0", "0", "1", "1"), ("2, 2",),
         blank=(..., ..., ..., ...)),
    Case("03", "the rule cse needed", lazy(cleaning_up.check_needed_rule, lambda: hloscope.parse_hlo(WASTEFUL)),
         "add_zero", "neg_neg", ("add_zero",)),
    Case("04", "unfused bytes", fusion.check_unfused_bytes,
         lambda N, M: 7 * N * M * 4 + N * 4, lambda N, M: 6 * N * M * 4 + N * 4, ("7 *", "29364224")),
    Case("04", "fused bytes", fusion.check_fused_bytes,
         lambda N, M: 3 * N * M * 4 + N * 4, lambda N, M: 3 * N * M * 4 + N * M * 4, ("3 *", "12587008")),
    Case("05", "a schedule (big arrays alive together)",
         lambda order: memory_planning.check_schedule(*four_sums_context(), order),
         None, None),  # answers filled in below: they depend on the traced names
    Case("06", "levels that vectorize", lazy(llvm_code.check_vectorized_levels, lambda: llvm_context()[0]),
         {2, 3}, {3}, ("{2, 3}",)),
    Case("06", "fmuladds in exp", lazy(llvm_code.check_fmuladds, lambda: llvm_context()[1]), 9, 8, ("9",)),
    Case("07", "cache misses and hits", lambda answer: jit_cache.check_cache_prediction(cache_info(), *answer),
         (4, 2), (3, 3), ("4", "2"), blank=(..., ...)),
    Case("08", "gelu launch", lambda answer: gpu_launch.check_launch("gelu", gpu_kernels()[0], answer, hint="h"),
         (7813, 128), (7812, 128), ("7813",), blank=(..., ...)),
    Case("08", "row sums launch", lambda answer: gpu_launch.check_launch("rows", gpu_kernels()[1], answer, hint="h"),
         (64, 64), (64, 128), ("64, 64", " 64"), blank=(..., ...)),
    Case("09", "a pass that forgets rw.keep",
         lambda answer: write_a_pass.check_subtract_of_negate(answer, pass_test_module()),
         SubtractOfNegate(), SubtractOfNegate(forget_keep=True), ("Traceback",)),
    Case("09", "a pass that writes a - b",
         lambda answer: write_a_pass.check_subtract_of_negate(answer, pass_test_module()),
         SubtractOfNegate(), SubtractOfNegate(keep_subtract=True), ("Traceback",)),
    Case("10", "fusion_kinds", lambda answer: vs_xla.check_fusion_kinds(answer, vs_xla_modules()),
         right_fusion_kinds, every_computation_fusion_kinds, ("kLoop\": ",)),
    Case("13", "clusters of two_layers", lazy(auto_clustering.check_clusters, two_layer_clusters),
         [("dot", "add")], [("dot",), ("dot", "add")], ("('dot', 'add')]",)),
    Case("14", "the shapes that changed", lazy(lazy_tensors.check_changed_shapes, lazy_diff),
         {("f32[32,8]", "f32[16,8]"), ("f32[32,1]", "f32[16,1]")}, {("f32[32,8]", "f32[16,8]")},
         ("f32[32,1]",)),
    Case("16", "collectives of a sharding", lazy(many_devices.check_collectives, w1_columns_log),
         {"all-reduce": 3, "all-gather": 2}, {"all-reduce": 1, "all-gather": 0}, ("3",),
         blank={"all-reduce": ..., "all-gather": ...}),
    Case("15", "compiles per front end", lazy(frameworks.check_compiles, front_end_compiles),
         {"jit": 2, "autojit": 4, "lazy": 2}, {"jit": 2, "autojit": 2, "lazy": 4}, ("4",),
         blank={"jit": ..., "autojit": ..., "lazy": ...}),
    Case("17", "the loop compiles once", asking_why.check_compiles_once,
         lambda p, g, step: p - 0.05 / (step + 1) * g, asking_why.decaying_update, ("0.05 / (step + 1) * g",)),
]


def _case_answers(case: Case) -> tuple[Any, Any]:
    if case.notebook == "05":
        unscheduled, _ = four_sums_context()
        traced = [i.name for i in unscheduled.entry_computation.post_order()]
        return scheduler_like_order(unscheduled), traced
    return case.right, case.wrong


def _verdict(capsys, case: Case, answer: Any) -> str:
    case.check(answer)
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1, lines  # one line per exercise, never a traceback
    return lines[0]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.notebook}-{c.exercise}")
def test_unanswered_right_and_wrong(case, capsys):
    right, wrong = _case_answers(case)
    assert _verdict(capsys, case, case.blank).endswith("not answered yet")
    assert _verdict(capsys, case, right).startswith("\u2713 ")
    line = _verdict(capsys, case, wrong)
    assert line.startswith("\u2717 ")
    for secret in case.secrets:
        assert secret not in line, (secret, line)


def test_a_function_still_returning_ellipsis_is_unanswered(capsys):
    def relu_row_sums(x):
        return ...

    hello_hlo.check_relu_row_sums(relu_row_sums)
    fusion.check_fused_bytes(lambda N, M: ...)
    vs_xla.check_fusion_kinds(lambda module: ..., {})
    assert [line.split(": ")[-1] for line in capsys.readouterr().out.splitlines()] == ["not answered yet"] * 3


def test_the_partial_sums_are_named_when_they_keep_the_peak_up(capsys):
    unscheduled, peak = four_sums_context()
    memory_planning.check_schedule(unscheduled, peak, partial_sums_pile_up(unscheduled))
    line = capsys.readouterr().out
    assert line.startswith("\u2717") and "row sums (1 KiB each" in line
    memory_planning.check_schedule(unscheduled, peak, [i.name for i in unscheduled.entry_computation.post_order()])
    assert "several big arrays are alive at once" in capsys.readouterr().out


def test_a_forgotten_keep_names_the_mistake(capsys):
    write_a_pass.check_subtract_of_negate(SubtractOfNegate(forget_keep=True), pass_test_module())
    line = capsys.readouterr().out
    assert "rw.keep(inst)" in line and "KeyError" not in line


def test_counting_every_computation_is_caught_on_the_nested_module(capsys):
    vs_xla.check_fusion_kinds(every_computation_fusion_kinds, {})
    assert "a fusion inside a called computation" in capsys.readouterr().out
