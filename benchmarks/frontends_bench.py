"""The real-library corpus from its StableHLO: hloscope's reading and legalization, its whole
compile and its run, against XLA compiling and running the same StableHLO text.

    .venv/bin/python benchmarks/frontends_bench.py                  # every program (jax 0.12's text)
    .venv/bin/python benchmarks/frontends_bench.py flax_mlp optax_adam --repeats 5

For each program of tests/library_models/jax-<newest>/: the StableHLO JAX printed, read and
legalized by hloscope (read / legalize / HLO parse, ms), compiled by hloscope from that text
to an executable (`cache=False`), and compiled by XLA:CPU from the same text (jaxlib's
`compile_and_load`, its whole pipeline, LLVM included). Compiles are the best of `--repeats`,
taken in turns; runs are the median of many calls on the recorded inputs, and each side's
outputs are checked against XLA's recorded ones first. Ratios are hloscope / XLA (< 1: hloscope
takes less time).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("JAX_PLATFORMS", "cpu")
import jax  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
import hloscope  # noqa: E402
from hloscope.compilation.xla import XlaRunner  # noqa: E402
from hloscope.stablehlo import read  # noqa: E402

CORPUS = sorted((ROOT / "tests" / "library_models").glob("jax-*"))[-1]


def xla_compile(text: str):
    from jax._src import xla_bridge
    from jax._src.lib import xla_client as xc  # pyright: ignore[reportPrivateImportUsage]

    backend = xla_bridge.get_backend("cpu")
    return backend.compile_and_load(text, xc.DeviceList(tuple(backend.devices()[:1])), xc.CompileOptions())


def best_in_turns(compiles: list, repeats: int) -> list[float]:
    times: list[list[float]] = [[] for _ in compiles]
    for k in range(repeats):
        order = list(range(len(compiles)))[:: 1 if k % 2 == 0 else -1]
        for i in order:
            start = time.perf_counter()
            compiles[i]()
            times[i].append(time.perf_counter() - start)
    return [min(t) for t in times]


def median_call(fn, budget: float = 0.3) -> float:
    fn()
    times, spent = [], 0.0
    while spent < budget or len(times) < 5:
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
        spent += times[-1]
    return statistics.median(times)


def case(name: str, repeats: int) -> dict:
    text = (CORPUS / f"{name}.stablehlo.mlir").read_text()
    data = np.load(CORPUS / f"{name}.npz")
    numbered = lambda p: sorted((k for k in data.files if k.startswith(p)), key=lambda k: int(k[3:]))  # noqa: E731
    args, want = [data[k] for k in numbered("arg")], [data[k] for k in numbered("out")]
    readings = [read(text) for _ in range(repeats)]
    ours, xla = best_in_turns([lambda: hloscope.compile(text, cache=False), lambda: xla_compile(text)], repeats)
    exe = hloscope.compile(text, cache=False)
    runner = XlaRunner(jax, xla_compile(text))
    buffers = runner.put(args)
    got = exe(*args)
    got = list(got) if isinstance(got, tuple) else [got]
    for g, w, x in zip(got, want, runner.outputs(args)):
        assert np.allclose(np.asarray(g, np.float64), w.astype(np.float64), rtol=1e-3, atol=1e-3), name
        assert np.allclose(x.astype(np.float64), w.astype(np.float64), rtol=1e-3, atol=1e-3), name
    return {
        "name": name, "operations": readings[0].legalized.mlir.operation_count(),
        "instructions": readings[0].module.instruction_count(),
        "read_ms": min(r.read_seconds for r in readings) * 1e3,
        "legalize_ms": min(r.legalize_seconds for r in readings) * 1e3,
        "parse_ms": min(r.parse_seconds for r in readings) * 1e3,
        "compile_s": ours, "xla_compile_s": xla,
        "run_us": median_call(lambda: exe(*args)) * 1e6, "xla_run_us": median_call(lambda: runner.execute(buffers)) * 1e6,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="the real-library corpus from its StableHLO: hloscope against XLA")
    parser.add_argument("names", nargs="*")
    parser.add_argument("--repeats", type=int, default=3)
    options = parser.parse_args()
    cases = json.loads((CORPUS / "manifest.json").read_text())["cases"]
    names = options.names or sorted(cases)
    print(f"{CORPUS.name} StableHLO, jax {jax.__version__} for XLA; best of {options.repeats} compiles; ratios hloscope/XLA")
    print(f"{'program':30} {'ops':>5} {'instr':>6} {'read':>6} {'legal':>6} {'parse':>6} "
          f"{'compile s':>10} {'XLA s':>7} {'ratio':>6} {'run us':>8} {'XLA us':>8} {'ratio':>6}")
    rows = []
    for name in names:
        r = case(name, options.repeats)
        rows.append(r)
        print(f"{name:30} {r['operations']:5} {r['instructions']:6} {r['read_ms']:6.1f} {r['legalize_ms']:6.1f} "
              f"{r['parse_ms']:6.1f} {r['compile_s']:10.3f} {r['xla_compile_s']:7.3f} "
              f"{r['compile_s'] / r['xla_compile_s']:6.2f} {r['run_us']:8.1f} {r['xla_run_us']:8.1f} "
              f"{r['run_us'] / r['xla_run_us']:6.2f}", flush=True)
    legalize = [r["read_ms"] + r["legalize_ms"] + r["parse_ms"] for r in rows]
    print(f"\nmedian compile ratio {statistics.median(r['compile_s'] / r['xla_compile_s'] for r in rows):.2f}, "
          f"median run ratio {statistics.median(r['run_us'] / r['xla_run_us'] for r in rows):.2f}, "
          f"reading + legalization median {statistics.median(legalize):.1f} ms (max {max(legalize):.1f} ms)")


if __name__ == "__main__":
    main()
