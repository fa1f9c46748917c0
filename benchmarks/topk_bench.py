"""top-k on the CPU: hloscope's topk kernel vs a full sort + slice (what XLA decomposes a
top-k into for non-f32 types) vs numpy vs jax.jit(lax.top_k) (XLA:CPU's TopK custom call).

    .venv/bin/python benchmarks/topk_bench.py

Prints median milliseconds per call and the ratios sort/topk (what the partial selection
saves) and jax/topk (> 1: hloscope is faster).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from typing import Callable

import numpy as np

os.environ.setdefault("JAX_PLATFORMS", "cpu")
import jax  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from hloscope.compiler import compile as hs_compile  # noqa: E402

SHAPES = [((64, 32000), 8), ((1024, 1000), 5), ((8, 4096), 64)]


def topk_hlo(rows: int, n: int, k: int) -> str:
    return (f"HloModule m\nENTRY e {{\n  x = f32[{rows},{n}] parameter(0)\n"
            f"  ROOT t = (f32[{rows},{k}], s32[{rows},{k}]) topk(x), k={k}, largest=true\n}}\n")


def sort_slice_hlo(rows: int, n: int, k: int) -> str:
    """XLA's TopkDecomposer form: a stable descending sort of (x, iota), then the first k."""
    return f"""HloModule m
greater {{
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  i = s32[] parameter(2)
  j = s32[] parameter(3)
  ROOT gt = pred[] compare(a, b), direction=GT, type=TOTALORDER
}}
ENTRY e {{
  x = f32[{rows},{n}] parameter(0)
  iota = s32[{rows},{n}] iota(), iota_dimension=1
  s = (f32[{rows},{n}], s32[{rows},{n}]) sort(x, iota), dimensions={{1}}, is_stable=true, to_apply=greater
  v = f32[{rows},{n}] get-tuple-element(s), index=0
  i = s32[{rows},{n}] get-tuple-element(s), index=1
  vk = f32[{rows},{k}] slice(v), slice={{[0:{rows}], [0:{k}]}}
  ik = s32[{rows},{k}] slice(i), slice={{[0:{rows}], [0:{k}]}}
  ROOT t = (f32[{rows},{k}], s32[{rows},{k}]) tuple(vk, ik)
}}
"""


def median_ms(f: Callable[[], object], repeats: int = 7) -> float:
    f()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def main() -> None:
    rng = np.random.default_rng(0)
    print(f"{'shape':>14} {'k':>3} {'topk ms':>9} {'sort ms':>9} {'numpy ms':>9} {'jax ms':>8} "
          f"{'sort/topk':>9} {'jax/topk':>8}")
    for (rows, n), k in SHAPES:
        x = rng.standard_normal((rows, n)).astype(np.float32)
        topk = hs_compile(topk_hlo(rows, n, k))
        sort = hs_compile(sort_slice_hlo(rows, n, k))
        jitted = jax.jit(lambda v: jax.lax.top_k(v, k))
        want = jitted(x)
        got = topk(x)
        assert np.array_equal(np.asarray(got[1]), np.asarray(want[1])), "topk disagrees with jax"
        t_topk = median_ms(lambda: topk(x))
        t_sort = median_ms(lambda: sort(x), repeats=3)
        t_np = median_ms(lambda: np.argsort(-x, axis=-1, kind="stable")[:, :k])
        t_jax = median_ms(lambda: [a.block_until_ready() for a in jitted(x)])
        print(f"{str((rows, n)):>14} {k:>3} {t_topk:9.3f} {t_sort:9.3f} {t_np:9.3f} {t_jax:8.3f} "
              f"{t_sort / t_topk:9.1f} {t_jax / t_topk:8.2f}")


if __name__ == "__main__":
    main()
