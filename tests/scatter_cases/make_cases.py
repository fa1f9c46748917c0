"""Records the scatter_cases: HLO text as JAX 0.10.2 lowers each function, its inputs and
JAX's (XLA:CPU's) outputs, so the tests need no JAX. Run from the repository root:

    python tests/scatter_cases/make_cases.py
"""

from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

HERE = Path(__file__).resolve().parent
RNG = np.random.default_rng(14)


def lm_loss(logits, labels):
    """The usual LM loss: take_along_axis picks each position's label log-probability."""
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.mean(jnp.take_along_axis(logp, labels[..., None], axis=-1))


def max_pool(x):
    return jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")


def max_pool_step(x, w):
    """A max-pool training step: pooled features, a linear head, its loss and gradients."""
    def loss(x, w):
        return jnp.sum(jnp.tanh(max_pool(x).reshape(x.shape[0], -1) @ w))
    return jax.grad(loss, argnums=(0, 1))(x, w)


def overlapping_pool_grad(x):
    """3x3 windows with stride 2 overlap: select-and-scatter adds into shared elements."""
    pool = lambda x: jnp.sum(jax.lax.reduce_window(x, -jnp.inf, jax.lax.max, (3, 3), (2, 2), "SAME") ** 2)
    return jax.grad(pool)(x)


def ints_with_ties(shape):
    """Small integers as floats: windows hold ties, which XLA breaks toward the first."""
    return RNG.integers(0, 4, shape).astype(np.float32)


CASES = {
    "take_along_axis": (lambda x, i: jnp.take_along_axis(x, i, axis=1),
                        [RNG.standard_normal((4, 7, 3)).astype(np.float32), RNG.integers(0, 7, (4, 5, 3)).astype(np.int32)]),
    "lm_loss_grad": (jax.value_and_grad(lm_loss),
                     [RNG.standard_normal((2, 5, 11)).astype(np.float32), RNG.integers(0, 11, (2, 5)).astype(np.int32)]),
    "batched_scatter_add": (lambda x, i, u: x.at[jnp.arange(4)[:, None], i].add(u),
                            [np.zeros((4, 6), np.float32), RNG.integers(0, 6, (4, 5)).astype(np.int32),
                             RNG.standard_normal((4, 5)).astype(np.float32)]),
    "scatter_max_repeats": (lambda x, i, u: x.at[i].max(u),
                            [RNG.standard_normal((8, 3)).astype(np.float32), np.array([1, 5, 1, 9, 5, 1], np.int32),
                             RNG.standard_normal((6, 3)).astype(np.float32)]),
    "max_pool_step": (max_pool_step, [ints_with_ties((2, 6, 8, 3)), (0.05 * RNG.standard_normal((36, 4))).astype(np.float32)]),
    "overlapping_pool_grad": (overlapping_pool_grad, [ints_with_ties((7, 9))]),
}


def main():
    for name, (fn, args) in CASES.items():
        jitted = jax.jit(fn)
        text = jitted.lower(*args).as_text(dialect="hlo")
        outs = jax.tree_util.tree_leaves(jitted(*args))
        (HERE / f"{name}.hlo").write_text(text)
        np.savez(HERE / f"{name}.npz", **{f"arg{k}": a for k, a in enumerate(args)},
                 **{f"out{k}": np.asarray(o) for k, o in enumerate(outs)})
        print(name, [o.shape for o in outs])


if __name__ == "__main__":
    main()
