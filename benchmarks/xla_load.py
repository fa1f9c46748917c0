"""How long hloscope.xla.load takes on a real dump: XLA's per-pass dump of the GPT-2 training
step (tests/models/programs.py: gpt2_train_step, 58 snapshot files, ~13 MB), made on the fly.

    .venv/bin/python benchmarks/xla_load.py            # best of 3 loads
    .venv/bin/python benchmarks/xla_load.py --repeat 5

Printed: the load time and its two stages, the goal (under 5 s for a 50-step dump), and
what parsing every snapshot alone (no ParseMemo) and comparing the modules' printed texts
(the way 'changed' was found before) would take, as a ratio.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("JAX_PLATFORMS", "cpu")
import jax  # noqa: E402
import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "models"))
import hloscope  # noqa: E402
from hloscope.xla import load  # noqa: E402
from hloscope.xla.capture import DUMP_OPTIONS  # noqa: E402
from programs import PROGRAMS  # noqa: E402  # pyright: ignore[reportMissingImports]

GOAL_SECONDS = 5.0


def make_dump(folder: Path, name: str = "gpt2_train_step") -> float:
    fn, args, _ = PROGRAMS[name](np.random.default_rng(0))
    leaves, tree = jax.tree_util.tree_flatten(args)
    start = time.perf_counter()
    jax.jit(lambda *xs: fn(*jax.tree_util.tree_unflatten(tree, xs))).lower(*leaves).compile(
        compiler_options={"xla_dump_to": str(folder), **DUMP_OPTIONS})
    return time.perf_counter() - start


def parse_alone(folder: Path) -> float:
    """Every snapshot parsed on its own, 'changed' from the printed modules (the old way)."""
    start = time.perf_counter()
    files = sorted(p for p in folder.iterdir() if p.name.endswith(".txt") and ".after_" in p.name)
    before = hloscope.parse_hlo(next(folder.glob("*.before_optimizations.txt")).read_text())
    for path in files:
        after = hloscope.parse_hlo(path.read_text())
        _ = after.to_text() != before.to_text()
        before = after
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        made = make_dump(folder)
        size = sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
        times, c = [], None
        for _ in range(options.repeat):
            start = time.perf_counter()
            c = load(folder)
            times.append(time.perf_counter() - start)
        assert c is not None
        best = min(times)
        old = parse_alone(folder)
        print(f"dump of gpt2_train_step: {len(c.records)} snapshots, {size / 1e6:.1f} MB, made by XLA in {made:.2f} s")
        print(f"hloscope.xla.load: best {best:.2f} s of {options.repeat} (goal < {GOAL_SECONDS:.0f} s for 50 steps: "
              f"{'met' if best < GOAL_SECONDS else 'NOT met'})")
        for stage in c.stages:
            print(f"  {stage.name:<14} {stage.seconds:6.2f} s  {stage.note}")
        print(f"parsing each snapshot alone + comparing printed modules: {old:.2f} s "
              f"({old / best:.1f}x the whole load)")


if __name__ == "__main__":
    main()
