"""Records the HLO of a small GPT-2 training step (loss and gradients) with JAX.

Run once, by hand, to rewrite gpt2_step.hlo (the tests read the text and never need JAX):

    PYTHONPATH=. python tests/error_model/make_gpt2_step.py

Two transformer blocks (layer norm, causal self-attention with softmax, GELU MLP), tied
embeddings, cross-entropy loss; jax.value_and_grad over every weight. The gradients are
sums over the batch and sequence, so their f32 rounding depends on summation order: the
case where a fixed-tolerance check raised false alarms.
"""

from __future__ import annotations

from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np

VOCAB, SEQ, BATCH, WIDTH, HEADS, LAYERS = 64, 16, 4, 32, 2, 2


def layer_norm(x, g, b):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / jnp.sqrt(var + 1e-5) * g + b


def attention(x, w_qkv, w_out):
    q, k, v = jnp.split(x @ w_qkv, 3, axis=-1)
    split = lambda t: t.reshape(BATCH, SEQ, HEADS, -1).transpose(0, 2, 1, 3)  # noqa: E731
    q, k, v = split(q), split(k), split(v)
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(q.shape[-1])
    mask = jnp.tril(jnp.ones((SEQ, SEQ), bool))
    scores = jnp.where(mask, scores, -1e9)
    out = jax.nn.softmax(scores, axis=-1) @ v
    return out.transpose(0, 2, 1, 3).reshape(BATCH, SEQ, WIDTH) @ w_out


def loss(params, tokens, targets):
    wte, wpe, blocks, (gf, bf) = params
    x = wte[tokens] + wpe[None]
    for g1, b1, w_qkv, w_out, g2, b2, w_fc, w_proj in blocks:
        x = x + attention(layer_norm(x, g1, b1), w_qkv, w_out)
        x = x + jax.nn.gelu(layer_norm(x, g2, b2) @ w_fc) @ w_proj
    logits = layer_norm(x, gf, bf) @ wte.T
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -(logp * jax.nn.one_hot(targets, VOCAB)).sum(-1).mean()  # one-hot: no batched gather


def step(params, tokens, targets):
    return jax.value_and_grad(loss)(params, tokens, targets)


def init(rng):
    w = lambda *s: (rng.standard_normal(s) * 0.2).astype(np.float32)  # noqa: E731
    ones, zeros = np.ones(WIDTH, np.float32), np.zeros(WIDTH, np.float32)
    blocks = [(ones, zeros, w(WIDTH, 3 * WIDTH), w(WIDTH, WIDTH), ones, zeros, w(WIDTH, 4 * WIDTH),
               w(4 * WIDTH, WIDTH)) for _ in range(LAYERS)]
    return w(VOCAB, WIDTH), w(SEQ, WIDTH), blocks, (ones, zeros)


def main() -> None:
    rng = np.random.default_rng(0)
    tokens = rng.integers(0, VOCAB, (BATCH, SEQ)).astype(np.int32)
    text = jax.jit(step).lower(init(rng), tokens, tokens).as_text(dialect="hlo")
    Path(__file__).with_name("gpt2_step.hlo").write_text(text)
    record_xla_outputs(text)


def record_xla_outputs(text: str) -> None:
    """XLA:CPU's outputs on the run stage's default inputs (seed 0), as gpt2_step_xla.npz."""
    import hloscope
    from hloscope.compilation.checks import flat_outputs
    from hloscope.compilation.inputs import parameter_inputs
    from hloscope.compilation.xla import xla_runner

    module = hloscope.parse_hlo(text)
    runner, why = xla_runner(module)
    assert runner is not None, why
    outputs = flat_outputs(runner.outputs(parameter_inputs(module, 0)))
    np.savez_compressed(Path(__file__).with_name("gpt2_step_xla.npz"), *outputs)


if __name__ == "__main__":
    main()
