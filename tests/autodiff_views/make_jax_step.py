"""Records jax_mlp_train_step.hlo: a two-layer MLP's SGD step as JAX 0.10.2 lowers it, with
the op_name metadata (`debug_info=True`) that says which instructions are forward and
backward. The tests read the file, so they need no JAX.

    PYTHONPATH=. .venv/bin/python tests/autodiff_views/make_jax_step.py
"""

from __future__ import annotations

from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np


def loss(params, x, y):
    w1, w2 = params
    return jnp.mean((jnp.tanh(x @ w1) @ w2 - y) ** 2)


def train_step(params, x, y):
    value, grads = jax.value_and_grad(loss)(params, x, y)
    return value, [p - 0.1 * g for p, g in zip(params, grads)]


def main() -> None:
    args = ([np.ones((8, 16), np.float32), np.ones((16, 4), np.float32)],
            np.ones((32, 8), np.float32), np.ones((32, 4), np.float32))
    text = jax.jit(train_step).lower(*args).as_text(dialect="hlo", debug_info=True)
    root = str(Path(__file__).resolve().parents[2]) + "/"
    text = text.replace(root, "")  # source paths relative to the repository, not this checkout
    out = Path(__file__).with_name("jax_mlp_train_step.hlo")
    out.write_text(text)
    print(f"wrote {out} ({len(text):,} characters) with JAX {jax.__version__}")


if __name__ == "__main__":
    main()
