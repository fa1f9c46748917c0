"""Nothing lost: compiling or exploring never changes the caller's module, function or
arrays, and doing it twice gives identical artifacts (also across processes, whatever
Python's hash seed: no result may depend on the order of a set or a dict of strings).
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from fuzz_profile import fuzz_settings
from hlo_strategies import hlo_cases
from hostile import CORPUS_FILES
from hypothesis import given

import hloscope

pytestmark = pytest.mark.fuzz

SOURCES = [p for p in CORPUS_FILES if not p.name.endswith(".opt.hlo")]
REPO = Path(__file__).resolve().parents[2]
TOLERANT_CASES = [p for p in SOURCES if p.stem in ("softmax", "fori_damped", "gather_rows", "layernorm")]


def fingerprint(result) -> dict:
    """Everything optimize produced, as text: the module, every record, the memory plan."""
    records = [
        (r.name, r.pipeline, r.iteration, r.changed, r.after.to_text() if r.changed else "", [repr(d) for d in r.log])
        for r in result.records
    ]
    return {"module": result.module.to_text(), "records": records, "plan": str(result.memory_plan)}


def corpus_arguments(path: Path, readonly: bool = True) -> list[np.ndarray]:
    data = np.load(path.with_suffix(".npz"))
    args = [data[k] for k in sorted((k for k in data.files if k.startswith("arg")), key=lambda k: int(k[3:]))]
    for a in args:
        a.flags.writeable = not readonly
    return args


# ---- the caller's values are never changed ----


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_optimize_evaluate_and_compile_leave_module_and_arrays_alone(path: Path):
    text = path.read_text()
    module = hloscope.parse_hlo(text)
    printed, computations = module.to_text(), module.computations
    args = corpus_arguments(path)  # read-only: a write would raise
    copies = [a.copy() for a in args]
    hloscope.optimize(module)
    hloscope.evaluate(module, *args)
    if getattr(hloscope, "compile", None) is not None:
        hloscope.compile(module, backend="cpu", cache=False)(*args)
    assert module.to_text() == printed and module.computations is computations
    for a, c in zip(args, copies):
        np.testing.assert_array_equal(a, c)


@fuzz_settings(scale=0.5)
@given(hlo_cases())
def test_optimize_leaves_random_modules_alone(case):
    printed = case.module.to_text()
    result = hloscope.optimize(case.module)
    assert case.module.to_text() == printed
    assert result.records[0].before is case.module  # the first pass saw the very module given


def test_jit_leaves_function_closure_and_arrays_alone():
    weights = np.arange(6, dtype=np.float32).reshape(2, 3)
    weights.flags.writeable = False

    def fn(x, scale=2.0):
        x += 1  # rebinding a traced array: the caller's array must not see it
        return (x * scale + weights).sum(axis=0)

    code, defaults, attributes = fn.__code__, fn.__defaults__, dict(vars(fn))
    x = np.ones((2, 3), np.float32)
    readonly = x.copy()
    readonly.flags.writeable = False
    f = hloscope.jit(fn)
    for arg in (x, readonly, x):
        np.testing.assert_allclose(f(arg), ((arg + 1) * 2 + weights).sum(axis=0))
    f.lower(x)
    assert (fn.__code__, fn.__defaults__, dict(vars(fn))) == (code, defaults, attributes)
    np.testing.assert_array_equal(x, np.ones((2, 3)))
    np.testing.assert_array_equal(readonly, np.ones((2, 3)))
    np.testing.assert_array_equal(weights, np.arange(6).reshape(2, 3))


# ---- the same input gives the same artifacts ----


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.stem)
def test_optimize_twice_gives_identical_results(path: Path):
    module = hloscope.parse_hlo(path.read_text())
    assert fingerprint(hloscope.optimize(module)) == fingerprint(hloscope.optimize(module))


@fuzz_settings(scale=0.5)
@given(hlo_cases())
def test_optimize_twice_gives_identical_results_on_random_modules(case):
    assert fingerprint(hloscope.optimize(case.module)) == fingerprint(hloscope.optimize(case.module))


def test_compile_twice_gives_identical_artifacts():
    for path in TOLERANT_CASES:
        module = hloscope.parse_hlo(path.read_text())
        a, b = (hloscope.compile(module, backend="cpu", cache=False).report for _ in range(2))
        assert (a.hlo, a.llvm_ir, a.optimized_llvm_ir) == (b.hlo, b.llvm_ir, b.optimized_llvm_ir), path.stem
        assert a.object_size == b.object_size, path.stem


DIGEST_CHILD = """
import hashlib, json, sys
sys.path.insert(0, {here!r})
import hloscope
from test_nothing_lost import fingerprint
out = {{}}
for path in {paths!r}:
    module = hloscope.parse_hlo(open(path).read())
    parts = [json.dumps(fingerprint(hloscope.optimize(module)))]
    if getattr(hloscope, "compile", None) is not None:
        report = hloscope.compile(module, backend="cpu", cache=False).report
        parts += [report.llvm_ir, report.optimized_llvm_ir]
    out[path] = hashlib.sha256("\\0".join(parts).encode()).hexdigest()
print(json.dumps(out))
"""


@pytest.mark.large
def test_results_do_not_depend_on_the_hash_seed():
    """Two processes with different PYTHONHASHSEED produce the same artifacts."""
    script = DIGEST_CHILD.format(here=str(Path(__file__).parent), paths=[str(p) for p in TOLERANT_CASES])
    digests = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run([sys.executable, "-c", script], cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
        assert run.returncode == 0, run.stderr
        digests.append(json.loads(run.stdout.splitlines()[-1]))
    assert digests[0] == digests[1]


def test_fingerprint_sees_a_difference():
    """The determinism checks above would notice a change (they compare real content)."""
    module = hloscope.parse_hlo(SOURCES[0].read_text())
    a = fingerprint(hloscope.optimize(module))
    b = fingerprint(hloscope.optimize(module, "simplify"))
    assert a != b and hashlib.sha256(json.dumps(a).encode()).digest() != hashlib.sha256(json.dumps(b).encode()).digest()
