"""Records JAX's top-k on CPU as HLO text + npz, so tests/test_topk*.py run without JAX.

    PYTHONPATH=. .venv/bin/python tests/topk_cases/record.py     (jax 0.10.2)

Each case <name> writes <name>.hlo (jax's lowered HLO: `topk(x), k=K, largest=true`),
<name>.npz (x, values, indices as XLA computed them) and, for the cases marked `compiled`,
<name>.compiled.hlo (XLA's optimized module: `custom-call(x), custom_call_target="TopK"` on f32).
The `smallest` cases are the lowered text with largest=false; their expected outputs are
XLA's top_k(-x) negated (negation reverses total order exactly, -0/+0 and NaN signs
included, and the ints recorded avoid INT_MIN), so XLA still computed them.
"""

from __future__ import annotations

from pathlib import Path

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np

HERE = Path(__file__).parent
rng = np.random.default_rng(14)

special = np.array([1, np.nan, 3, 3, -np.inf, -0.0, 0.0, np.nan, 2, 1, np.inf, -np.nan], np.float32)
CASES = {
    # name: (x, k, compiled form recorded too)
    "f32_special_k5": (special, 5, True),
    "f32_special_all": (special, 12, False),
    "f32_ties_4x17_k5": (rng.integers(-3, 4, (4, 17)).astype(np.float32), 5, True),
    "f32_rank3_k1": (rng.standard_normal((2, 3, 50)).astype(np.float32), 1, False),
    "f32_long_2x1000_k10": (rng.standard_normal((2, 1000)).astype(np.float32), 10, True),
    "f32_k0": (rng.standard_normal((3, 8)).astype(np.float32), 0, False),
    "s32_ties_5x33_k4": (rng.integers(-5, 6, (5, 33)).astype(np.int32), 4, True),
    "bf16_ties_4x20_k6": (rng.integers(-4, 5, (4, 20)).astype(ml_dtypes.bfloat16), 6, False),
    "f16_neg_inf_3x9_k3": (np.array([[-np.inf] * 9, [1, -np.inf, 2, np.nan, 0, -0.0, 2, 1, 5],
                                     [0.5] * 9], np.float16), 3, False),
}
SMALLEST = ["f32_special_k5", "f32_ties_4x17_k5", "s32_ties_5x33_k4", "f32_rank3_k1"]


def top_k(x: np.ndarray, k: int):
    return jax.jit(lambda v: jax.lax.top_k(v, k))


def main() -> None:
    for name, (x, k, compiled) in CASES.items():
        lowered = top_k(x, k).lower(x)
        text = lowered.as_text(dialect="hlo")
        values, indices = (np.asarray(a) for a in top_k(x, k)(x))
        (HERE / f"{name}.hlo").write_text(text)
        np.savez(HERE / f"{name}.npz", x=x, values=values, indices=indices)
        if compiled:
            (HERE / f"{name}.compiled.hlo").write_text(lowered.compile().as_text().replace(str(HERE.parents[1]) + "/", ""))  # no machine paths
        if name in SMALLEST:
            neg_values, neg_indices = (np.asarray(a) for a in top_k(x, k)(-x))
            (HERE / f"{name}_smallest.hlo").write_text(text.replace("largest=true", "largest=false"))
            np.savez(HERE / f"{name}_smallest.npz", x=x, values=-neg_values, indices=neg_indices)
        print(name, x.dtype, x.shape, k)
    sampling()


def sampling() -> None:
    """logits -> top-k -> softmax -> categorical with a fixed key: one sampling step."""
    logits = rng.standard_normal((4, 64)).astype(np.float32)
    key = jax.random.key_data(jax.random.key(7))

    def step(logits, key):
        values, indices = jax.lax.top_k(logits, 8)
        probs = jax.nn.softmax(values, axis=-1)
        choice = jax.random.categorical(jax.random.wrap_key_data(key), jnp.log(probs), axis=-1)
        picked = jnp.arange(indices.shape[-1]) == choice[:, None]  # one-hot: hloscope's CPU has no
        return probs, jnp.sum(jnp.where(picked, indices, 0), axis=-1)  # batched gather (take_along_axis)

    f = jax.jit(step)
    (HERE / "sampling_step.hlo").write_text(f.lower(logits, key).as_text(dialect="hlo"))
    probs, token = (np.asarray(a) for a in f(logits, key))
    np.savez(HERE / "sampling_step.npz", logits=logits, key=np.asarray(key), probs=probs, token=token)
    print("sampling_step", token)


if __name__ == "__main__":
    main()
