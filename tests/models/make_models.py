"""Writes tests/models: real-model programs (programs.py) lowered by JAX, with XLA's outputs.

    PYTHONPATH=. .venv/bin/python tests/models/make_models.py

For each program NAME: NAME.hlo (jax.jit(f).lower(*args).as_text(dialect="hlo")),
NAME.opt.hlo (.compile().as_text()), NAME.npz (arg0.. inputs, out0.. XLA:CPU's outputs) and
a manifest.json entry. Tolerances are per output, measured as tests/corpus does: each float
output is recomputed with float64 inputs (x64 on), and atol is raised to at least 4x XLA's
float32 error beyond rtol; integer and bool outputs must match exactly.
"""

from __future__ import annotations

import json
import platform
import re
import sys
import time
import zlib
from pathlib import Path

import jax
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from programs import PROGRAMS  # noqa: E402

OUT = Path(__file__).resolve().parent
RTOL, ATOL_FLOOR = 1e-5, 1e-6
BF16_RTOL, BF16_ATOL_FLOOR = 1e-2, 1e-2
SEED = 20240611


def flat_call(fn, args):
    """fn as a function of its flattened argument leaves, and those leaves."""
    leaves, tree = jax.tree_util.tree_flatten(args)
    return (lambda *xs: fn(*jax.tree_util.tree_unflatten(tree, xs))), [np.asarray(x) for x in leaves]


def opcodes(hlo: str) -> list[str]:
    """The opcodes of HLO text: what follows an instruction's shape on each `name = ...` line."""
    found = set()
    for line in hlo.splitlines():
        _, eq, rest = line.partition(" = ")
        if not eq:
            continue
        rest = rest.strip()
        if rest.startswith("("):  # a tuple shape: skip its balanced parentheses
            depth = 0
            for i, ch in enumerate(rest):
                depth += ch == "("
                depth -= ch == ")"
                if depth == 0:
                    rest = rest[i + 1:]
                    break
        else:
            rest = rest.partition(" ")[2]
        m = re.match(r"\s*([a-z][a-z0-9-]*)\(", rest)
        if m:
            found.add(m.group(1))
    return sorted(found)


def spec(name: str, a: np.ndarray) -> dict:
    return {"name": name, "shape": list(a.shape), "dtype": str(a.dtype)}


def lower_all() -> dict:
    """Phase 1 (x64 off): each program's texts, inputs and XLA's outputs."""
    made = {}
    for name, build in PROGRAMS.items():
        rng = np.random.default_rng(SEED + zlib.crc32(name.encode()))
        fn, args, description = build(rng)
        f, leaves = flat_call(fn, args)
        lowered = jax.jit(f).lower(*leaves)
        compiled = lowered.compile()
        outs = [np.asarray(o) for o in jax.tree_util.tree_leaves(compiled(*leaves))]
        start = time.perf_counter()
        outs_again = [np.asarray(o) for o in jax.tree_util.tree_leaves(compiled(*leaves))]
        assert all(np.array_equal(a, b, equal_nan=True) for a, b in zip(outs, outs_again)), name
        made[name] = dict(fn=f, leaves=leaves, outs=outs, description=description,
                          hlo=lowered.as_text(dialect="hlo"), opt_hlo=compiled.as_text(),
                          xla_ms=(time.perf_counter() - start) * 1e3)
    return made


def reference_errors(made: dict) -> None:
    """Phase 2 (x64 on): each float output's error against a float64 run of the program."""
    jax.config.update("jax_enable_x64", True)
    for name, m in made.items():
        wide = [x.astype(np.float64) if x.dtype.kind == "f" else x for x in m["leaves"]]
        refs = [np.asarray(o) for o in jax.tree_util.tree_leaves(jax.jit(m["fn"])(*wide))]
        assert len(refs) == len(m["outs"]), name
        m["tols"] = [_tolerance(out, ref) for out, ref in zip(m["outs"], refs)]
    jax.config.update("jax_enable_x64", False)


def _tolerance(out: np.ndarray, ref: np.ndarray) -> dict:
    if out.dtype.kind not in "fc":
        return {"rtol": 0.0, "atol": 0.0}
    rtol, floor = (BF16_RTOL, BF16_ATOL_FLOOR) if out.dtype.itemsize <= 2 else (RTOL, ATOL_FLOOR)
    o, r = out.astype(np.float64), ref.astype(np.float64)
    abs_err = np.abs(o - r)
    beyond = float(np.max(abs_err - rtol * np.abs(r), initial=0.0))
    return {"rtol": rtol, "atol": float(max(floor, 4 * beyond)),
            "ref_max_abs_err": float(np.max(abs_err, initial=0.0)),
            "ref_max_rel_err": float(np.max(abs_err / np.maximum(np.abs(r), 1e-30), initial=0.0))}


def write(made: dict) -> None:
    cases = {}
    for name, m in made.items():
        (OUT / f"{name}.hlo").write_text(m["hlo"])
        (OUT / f"{name}.opt.hlo").write_text(without_checkout_path(m["opt_hlo"]))
        arrays = {f"arg{i}": a for i, a in enumerate(m["leaves"])} | {f"out{i}": a for i, a in enumerate(m["outs"])}
        np.savez_compressed(OUT / f"{name}.npz", **arrays)  # type: ignore[arg-type]
        outputs = [spec(f"out{i}", o) | tol for i, (o, tol) in enumerate(zip(m["outs"], m["tols"]))]
        cases[name] = {
            "description": m["description"],
            "tier": "model",
            "opcodes": opcodes(m["hlo"]),
            "opt_opcodes": opcodes(m["opt_hlo"]),
            "inputs": [spec(f"arg{i}", a) for i, a in enumerate(m["leaves"])],
            "outputs": outputs,
            "tuple_output": len(m["outs"]) > 1,
            "x64": False,
            # the loosest per-output tolerance, for tools that take one per case
            "rtol": max(o["rtol"] for o in outputs),
            "atol": max(o["atol"] for o in outputs),
            "files": {"hlo": f"{name}.hlo", "opt_hlo": f"{name}.opt.hlo", "npz": f"{name}.npz"},
        }
    meta = {
        "corpus": "models",
        "generator": "tests/models/make_models.py (programs in tests/models/programs.py)",
        "generated_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "jax_version": jax.__version__,
        "numpy_version": np.__version__,
        "python": platform.python_version(),
        "backend": jax.default_backend(),
        "hlo_api": 'jax.jit(f).lower(*args).as_text(dialect="hlo")',
        "opt_hlo_api": "jax.jit(f).lower(*args).compile().as_text()",
        "npz_layout": "arg0..argK: the flattened argument pytree (jax.tree_util order); out0..outM: the flattened result",
        "compare": "per output: np.allclose(got, outI, outputs[I].rtol, outputs[I].atol); rtol=atol=0 means exact equality",
        "tol_note": "float outputs: atol raised to >= 4x XLA's float32 error vs a float64 evaluation (same program, "
                    "float inputs cast to float64, x64 on) beyond rtol; ref_max_abs_err / ref_max_rel_err record that error. "
                    "Random bits are drawn as float32 in both runs.",
        "seed": f"np.random.default_rng({SEED} + zlib.crc32(name)); jax keys are fixed in programs.py",
        "opcode_union": sorted({op for c in cases.values() for op in c["opcodes"]}),
    }
    (OUT / "manifest.json").write_text(json.dumps({"meta": meta, "cases": cases}, indent=1) + "\n")


def main() -> None:
    made = lower_all()
    reference_errors(made)
    write(made)
    for name, m in made.items():
        worst = max((t.get("ref_max_abs_err", 0.0) for t in m["tols"]), default=0.0)
        print(f"{name:24s} {len(m['leaves']):3d} args {len(m['outs']):3d} outs  worst f32 err {worst:.2e}  "
              f"XLA {m['xla_ms']:.2f} ms")


def without_checkout_path(text: str) -> str:
    """XLA's optimized text names source files by absolute path: keep them relative to the
    checkout, so the committed files name no machine's folders."""
    return text.replace(str(Path(__file__).resolve().parents[2]) + "/", "")


if __name__ == "__main__":
    main()

