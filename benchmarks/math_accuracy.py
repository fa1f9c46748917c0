"""The transcendental approximations' worst error in ulps, on many inputs, as every CPU.

    python benchmarks/math_accuracy.py [--draws 10] [--per-draw 200000]

For each function and type: the largest error over `draws` x `per-draw` inputs drawn as the
test draws them (tests/backend/math_cases.py), compiled as this machine and as each CPU of
tests/hosts.py it can run code for (without FMA, a product is rounded before it is added:
the polynomials come out differently). The bounds in backend/mathlib/approx.py and in the
test are the worst of these columns; a row whose worst passes its bound is marked `!`.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests"), str(ROOT / "tests" / "backend")]

from hosts import stand_ins  # noqa: E402  # pyright: ignore[reportMissingImports]
from math_cases import UNARY, unary_errors, unary_inputs  # noqa: E402  # pyright: ignore[reportMissingImports]

from hloscope.backend.cpu import jit  # noqa: E402


def worst(op: str, dtype: str, draws: int, per_draw: int) -> float:
    return max(float(unary_errors(op, dtype, unary_inputs(op, dtype, per_draw, draw))[0].max()) for draw in range(draws))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--draws", type=int, default=10)
    parser.add_argument("--per-draw", type=int, default=200_000)
    args = parser.parse_args()
    cpus = {"this": None, **stand_ins()}
    print(f"{args.draws} x {args.per_draw} inputs per row; CPUs: " + ", ".join(
        f"{name} ({jit.host_cpu()[0] if cpu is None else cpu[0]})" for name, cpu in cpus.items()))
    print(f"{'function':<24}{'type':<6}" + "".join(f"{name:>9}" for name in cpus) + f"{'bound':>8}")
    for op in sorted(UNARY):
        for k, dtype in enumerate(("f32", "f64")):
            row = []
            for cpu in cpus.values():
                if cpu is None:
                    row.append(worst(op, dtype, args.draws, args.per_draw))
                    continue
                with jit.standing_in_for_host(*cpu):
                    row.append(worst(op, dtype, args.draws, args.per_draw))
            bound = UNARY[op][2][k]
            flag = " !" if max(row) > bound else ""
            print(f"{op:<24}{dtype:<6}" + "".join(f"{e:>9.2f}" for e in row) + f"{bound:>8g}{flag}")


if __name__ == "__main__":
    main()
