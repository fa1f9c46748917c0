"""Compile time of a long dependent program: hloscope's CPU compile against XLA:CPU's.

The program is a chain of elementwise ops (tanh, multiply, maximum, sin) over 64 values that
stay live, each step reading two earlier values, so nothing can be dropped and every value
is a fusion's output or operand: about 1,200 HLO instructions. A compile time that grows
faster than the program (quadratic passes, one huge LLVM function) shows here first.

    .venv/bin/python benchmarks/long_chain.py            # default: 1,181 instructions
    .venv/bin/python benchmarks/long_chain.py 300 600    # several lengths: is it linear?

XLA's time is jax.jit(...).lower(...).compile() of the same function (JAX is optional:
without it only hloscope's time is printed).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import hloscope  # noqa: E402

LIVE = 64
SHAPE = (256,)


def chain(steps: int, xnp):
    """The program, written once for numpy-style modules (hloscope.numpy, jax.numpy)."""

    def f(x):
        values = [x * (i + 1) / LIVE for i in range(LIVE)]
        for k in range(steps):
            a, b = values[k % LIVE], values[(7 * k + 3) % LIVE]
            op = k % 4
            if op == 0:
                v = xnp.tanh(a)
            elif op == 1:
                v = a * b
            elif op == 2:
                v = xnp.maximum(a, b)
            else:
                v = xnp.sin(b)
            values[k % LIVE] = v
        return sum(values[1:], values[0])

    return f


def hloscope_seconds(steps: int) -> tuple[float, int]:
    import hloscope.numpy as hnp

    x = np.linspace(-1, 1, SHAPE[0], dtype=np.float32)
    module = hloscope.jit(chain(steps, hnp)).lower(x)
    start = time.perf_counter()
    exe = hloscope.compile(module, cache=False)
    seconds = time.perf_counter() - start
    exe(x)
    return seconds, module.instruction_count()


def xla_seconds(steps: int) -> float | None:
    try:
        import jax
        import jax.numpy as jnp
    except ImportError:
        return None
    x = np.linspace(-1, 1, SHAPE[0], dtype=np.float32)
    lowered = jax.jit(chain(steps, jnp)).lower(x)
    start = time.perf_counter()
    lowered.compile()
    return time.perf_counter() - start


def main(argv: list[str]) -> None:
    for steps in [int(a) for a in argv] or [987]:
        ours, count = min(hloscope_seconds(steps) for _ in range(2))
        xla = min((xla_seconds(steps) for _ in range(2)), key=lambda s: s or 0)
        ratio = f"{ours / xla:5.2f}x" if xla else "  -  "
        print(f"{count:6d} instructions  hloscope {ours:6.2f} s  XLA {xla or float('nan'):6.2f} s  {ratio}")


if __name__ == "__main__":
    main(sys.argv[1:])
