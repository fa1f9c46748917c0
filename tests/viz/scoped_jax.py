"""A GPT-2 training step written with `jax.named_scope`, as real model code names its parts.

tests/models' programs name no scopes (JAX then writes only `jvp()`, `transpose(jvp())` and
the names of jitted helpers), so this one does, the way flax or haiku modules would:
`block/attn/qkv`, `block/mlp/fc`, ... Imported only by tests that `pytest.importorskip("jax")`.

    before, after = gpt2_texts()   # HLO text as XLA gets it (with metadata), and XLA's optimized text
    text = gpt2_input_text(15)      # a 15-block stack: ~5,000 instructions (benchmarks/graph_scopes.py)
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np

D, HEADS, SEQ, VOCAB, FF = 32, 4, 16, 64, 128


def _layer_norm(x, g, b):
    with jax.named_scope("ln"):
        mean = x.mean(-1, keepdims=True)
        var = ((x - mean) ** 2).mean(-1, keepdims=True)
        return (x - mean) * jax.lax.rsqrt(var + 1e-5) * g + b


def _attention(p, x):
    b, s, d = x.shape
    with jax.named_scope("attn"):
        with jax.named_scope("qkv"):
            q, k, v = (t.reshape(b, s, HEADS, d // HEADS) for t in jnp.split(x @ p["w_qkv"], 3, axis=-1))
        with jax.named_scope("scores"):
            scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(d // HEADS)
            scores = jnp.where(jnp.tril(jnp.ones((s, s), bool)), scores, -1e9)
        with jax.named_scope("mix"):
            out = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(scores, axis=-1), v).reshape(b, s, d)
        with jax.named_scope("out"):
            return out @ p["w_o"]


def _mlp(p, x):
    with jax.named_scope("mlp"):
        with jax.named_scope("fc"):
            h = jax.nn.gelu(x @ p["w_fc"], approximate=True)
        with jax.named_scope("proj"):
            return h @ p["w_proj"]


def _block(p, x):
    x = x + _attention(p, _layer_norm(x, p["ln1_g"], p["ln1_b"]))
    return x + _mlp(p, _layer_norm(x, p["ln2_g"], p["ln2_b"]))


def _loss(p, tokens, targets, layers: int = 1):
    x = p["wte"][tokens]
    for i in range(layers):  # one block is named "block", a stack "layer_0", "layer_1", ...
        with jax.named_scope("block" if layers == 1 else f"layer_{i}"):
            x = _block(p, x)
    with jax.named_scope("head"):
        logits = x @ p["wte"].T
        logp = jax.nn.log_softmax(logits, axis=-1)
        return -jnp.take_along_axis(logp, targets[..., None], axis=-1).mean()


def train_step(p, tokens, targets, layers: int = 1):
    loss, grads = jax.value_and_grad(_loss)(p, tokens, targets, layers)
    with jax.named_scope("sgd"):
        return loss, jax.tree_util.tree_map(lambda w, g: w - 0.1 * g, p, grads)


def _args():
    rng = np.random.default_rng(0)
    f32 = np.float32

    def weight(*shape):
        return (rng.standard_normal(shape) / math.sqrt(shape[0])).astype(f32)

    p = {"wte": weight(VOCAB, D), "w_qkv": weight(D, 3 * D), "w_o": weight(D, D), "w_fc": weight(D, FF),
         "w_proj": weight(FF, D), "ln1_g": np.ones(D, f32), "ln1_b": np.zeros(D, f32),
         "ln2_g": np.ones(D, f32), "ln2_b": np.zeros(D, f32)}
    tokens = rng.integers(0, VOCAB, (2, SEQ), dtype=np.int32)
    return p, tokens, (tokens + 1) % VOCAB


def gpt2_texts(layers: int = 1) -> tuple[str, str]:
    """(the module JAX hands XLA, with op_name metadata; XLA:CPU's optimized module), of a
    step through `layers` blocks (sharing weights: the graph, not the model, is the point)."""
    lowered = _lowered(layers)
    return lowered.as_text(dialect="hlo", debug_info=True), lowered.compile().as_text()


def gpt2_input_text(layers: int) -> str:
    """Only the module JAX hands XLA (no XLA compile: quick even for a deep stack)."""
    return _lowered(layers).as_text(dialect="hlo", debug_info=True)


def _lowered(layers: int):
    return jax.jit(train_step, static_argnums=3).lower(*_args(), layers)
