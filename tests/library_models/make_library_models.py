"""Writes tests/library_models/jax-<version>/: the programs of library_programs.py (flax, equinox,
optax, keras, haiku) as the installed JAX lowers them, with XLA's outputs.

    python tests/library_models/make_library_models.py       # in an environment with jax and
                                                              # flax, equinox, optax, keras, dm-haiku

For each program NAME: NAME.hlo (`jax.jit(f).lower(*args).as_text(dialect="hlo")`),
NAME.stablehlo.mlir (`.as_text()`: what JAX prints by default), NAME.opt.hlo
(`.compile().as_text()`, with the large constants it would elide printed), NAME.npz (arg0.. the flattened arguments, out0.. XLA:CPU's
flattened outputs) and a manifest.json entry with each output's tolerance, measured as
tests/models does (4x XLA's float32 error against a float64 run of the same program), or a
fixed one where the library will not run in float64 (said in the entry).
"""

from __future__ import annotations

import importlib.metadata
import json
import platform
import sys
import time
import zlib
from pathlib import Path

import jax
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "models")]
from make_models import _tolerance, flat_call, opcodes, spec, without_checkout_path  # noqa: E402
from library_programs import PROGRAMS  # noqa: E402

SEED = 20261204
FIXED = {"rtol": 1e-4, "atol_of_scale": 1e-5}  # where no float64 run is possible
LIBRARIES = ("flax", "equinox", "optax", "keras", "dm-haiku", "jax", "jaxlib")


def lower(name: str) -> dict:
    rng = np.random.default_rng(SEED + zlib.crc32(name.encode()))
    fn, args = PROGRAMS[name](rng)
    f, leaves = flat_call(fn, args)
    lowered = jax.jit(f, keep_unused=True).lower(*leaves)  # every argument a parameter, as the .npz has them
    compiled = lowered.compile()
    outs = [np.asarray(o) for o in jax.tree_util.tree_leaves(compiled(*leaves))]
    return dict(fn=f, leaves=leaves, outs=outs, hlo=lowered.as_text(dialect="hlo"), stablehlo=lowered.as_text(),
                opt_hlo=without_checkout_path(optimized_text(compiled)))


def optimized_text(compiled) -> str:
    """`compiled.as_text()` with large constants' values printed: as_text elides them ({...})."""
    from jax._src.lib import xla_client  # private: the printer's options

    options = xla_client.hlo.HloPrintOptions()
    options.print_large_constants = True
    return compiled.runtime_executable().hlo_modules()[0].to_string(options)


def tolerances(m: dict) -> tuple[list[dict], str]:
    """Each output's tolerance, and how it was found."""
    jax.config.update("jax_enable_x64", True)
    try:
        wide = [x.astype(np.float64) if x.dtype.kind == "f" else x for x in m["leaves"]]
        refs = [np.asarray(o) for o in jax.tree_util.tree_leaves(jax.jit(m["fn"])(*wide))]
        if len(refs) != len(m["outs"]) or any(r.shape != o.shape for r, o in zip(refs, m["outs"])):
            raise ValueError("the float64 run gave other outputs")
        return [_tolerance(o, r) for o, r in zip(m["outs"], refs)], "float64 run"
    except Exception as e:  # noqa: BLE001 - a library that will not run in float64: fixed tolerances
        fixed = [{"rtol": 0.0, "atol": 0.0} if o.dtype.kind not in "fc" else
                 {"rtol": FIXED["rtol"], "atol": float(FIXED["atol_of_scale"] * max(1.0, np.abs(o).max(initial=0)))}
                 for o in m["outs"]]
        return fixed, f"fixed (no float64 run: {type(e).__name__})"
    finally:
        jax.config.update("jax_enable_x64", False)


def main() -> None:
    out = HERE / f"jax-{jax.__version__}"
    out.mkdir(exist_ok=True)
    cases = {}
    for name in PROGRAMS:
        m = lower(name)
        tols, how = tolerances(m)
        (out / f"{name}.hlo").write_text(m["hlo"])
        (out / f"{name}.stablehlo.mlir").write_text(without_checkout_path(m["stablehlo"]))
        (out / f"{name}.opt.hlo").write_text(m["opt_hlo"])
        arrays = {f"arg{i}": a for i, a in enumerate(m["leaves"])} | {f"out{i}": a for i, a in enumerate(m["outs"])}
        np.savez_compressed(out / f"{name}.npz", **arrays)  # type: ignore[arg-type]
        cases[name] = {
            "library": name.split("_")[0],
            "opcodes": opcodes(m["hlo"]),
            "inputs": [spec(f"arg{i}", a) for i, a in enumerate(m["leaves"])],
            "outputs": [spec(f"out{i}", o) | t for i, (o, t) in enumerate(zip(m["outs"], tols))],
            "tolerance": how,
        }
        print(f"{name:30s} {len(m['leaves']):3d} args {len(m['outs']):3d} outs  tolerance: {how}")
    meta = {
        "generator": "tests/library_models/make_library_models.py (programs in library_programs.py)",
        "generated_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "versions": {lib: importlib.metadata.version(lib) for lib in LIBRARIES},
        "python": platform.python_version(),
        "numpy_version": np.__version__,
        "hlo_api": 'jax.jit(f, keep_unused=True).lower(*args).as_text(dialect="hlo")',
        "stablehlo_api": "jax.jit(f).lower(*args).as_text()",
        "opt_hlo_api": "jax.jit(f).lower(*args).compile(), printed with print_large_constants",
        "npz_layout": "arg0..argK: the flattened arguments (jax.tree_util order); out0..outM: the flattened result",
        "seed": f"np.random.default_rng({SEED} + zlib.crc32(name))",
    }
    (out / "manifest.json").write_text(json.dumps({"meta": meta, "cases": cases}, indent=1) + "\n")


if __name__ == "__main__":
    main()
