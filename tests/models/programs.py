"""The model programs of tests/models, written in JAX (imported only by make_models.py).

Each builder takes a numpy Generator and returns (function, argument pytree, description).
Every function is dtype-generic: its float math runs in the dtype of its float inputs, so
make_models.py can run it again with float64 inputs to measure XLA's float32 error. Random
bits are always drawn as float32 (the bits of a float64 draw differ), and integer and key
inputs keep their type.
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

BF16 = jnp.bfloat16
CONV_DIMS = ("NHWC", "HWIO", "NHWC")


def weight(rng: np.random.Generator, *shape: int, fan_in: int | None = None) -> np.ndarray:
    fan = fan_in if fan_in is not None else (shape[0] if len(shape) > 1 else 1)
    return (rng.standard_normal(shape) / math.sqrt(fan)).astype(np.float32)


def normal(rng: np.random.Generator, *shape: int, scale: float = 1.0) -> np.ndarray:
    return (rng.standard_normal(shape) * scale).astype(np.float32)


def key_data(seed: int) -> np.ndarray:
    return np.asarray(jax.random.key_data(jax.random.key(seed)))


# Shared layers -----------------------------------------------------------------------

def layer_norm(x, g, b, eps=1e-5):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + eps) * g + b


def group_norm(x, g, b, groups, eps=1e-5):
    n, h, w, c = x.shape
    xg = x.reshape(n, h, w, groups, c // groups)
    mean = xg.mean((1, 2, 4), keepdims=True)
    var = ((xg - mean) ** 2).mean((1, 2, 4), keepdims=True)
    return ((xg - mean) * lax.rsqrt(var + eps)).reshape(x.shape) * g + b


def conv(x, w, stride=1, padding="SAME", groups=1):
    return lax.conv_general_dilated(x, w, (stride, stride), padding, dimension_numbers=CONV_DIMS,
                                    feature_group_count=groups)


def max_pool(x):
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")


def cross_entropy(logits, targets):
    logp = jax.nn.log_softmax(logits, axis=-1)
    return -jnp.take_along_axis(logp, targets[..., None], axis=-1).mean()


def adam(params, grads, m, v, step, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8):
    """One Adam step on matching pytrees; `step` is the int32 count before this step."""
    t = (step + 1).astype(jax.tree_util.tree_leaves(params)[0].dtype)
    m = jax.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, m, grads)
    v = jax.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, v, grads)
    c1, c2 = 1 - b1 ** t, 1 - b2 ** t
    params = jax.tree_util.tree_map(lambda p, m, v: p - lr * (m / c1) / (jnp.sqrt(v / c2) + eps), params, m, v)
    return params, m, v, step + 1


def gpt2_block_params(rng, d=32, ff=128):
    return {
        "ln1_g": 1 + normal(rng, d, scale=0.1), "ln1_b": normal(rng, d, scale=0.1),
        "w_qkv": weight(rng, d, 3 * d), "b_qkv": normal(rng, 3 * d, scale=0.02),
        "w_o": weight(rng, d, d), "b_o": normal(rng, d, scale=0.02),
        "ln2_g": 1 + normal(rng, d, scale=0.1), "ln2_b": normal(rng, d, scale=0.1),
        "w_fc": weight(rng, d, ff), "b_fc": normal(rng, ff, scale=0.02),
        "w_proj": weight(rng, ff, d), "b_proj": normal(rng, d, scale=0.02),
    }


def gpt2_block(p, x, heads=4):
    b, s, d = x.shape
    hd = d // heads
    qkv = layer_norm(x, p["ln1_g"], p["ln1_b"]) @ p["w_qkv"] + p["b_qkv"]
    q, k, v = (t.reshape(b, s, heads, hd) for t in jnp.split(qkv, 3, axis=-1))
    scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / math.sqrt(hd)
    causal = jnp.tril(jnp.ones((s, s), bool))
    scores = jnp.where(causal, scores, -1e9)
    attn = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(scores, axis=-1), v).reshape(b, s, d)
    x = x + attn @ p["w_o"] + p["b_o"]
    h = jax.nn.gelu(layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["w_fc"] + p["b_fc"], approximate=True)
    return x + h @ p["w_proj"] + p["b_proj"]


# The programs --------------------------------------------------------------------------

def gpt2_block_forward(rng):
    args = (gpt2_block_params(rng), normal(rng, 2, 16, 32))
    return gpt2_block, args, "GPT-2 block forward: pre-LN, 4-head causal attention, tanh-GELU MLP; batch 2, seq 16, d_model 32"


def gpt2_train_step(rng, vocab=64, seq=16, d=32):
    params = {"block": gpt2_block_params(rng), "wte": weight(rng, vocab, d, fan_in=d),
              "wpe": normal(rng, seq, d, scale=0.1), "lnf_g": 1 + normal(rng, d, scale=0.1),
              "lnf_b": normal(rng, d, scale=0.1)}
    m = jax.tree_util.tree_map(lambda p: normal(rng, *p.shape, scale=1e-3), params)
    v = jax.tree_util.tree_map(lambda p: np.abs(normal(rng, *p.shape, scale=1e-3)) ** 2, params)
    tokens = rng.integers(0, vocab, (2, seq), dtype=np.int32)
    targets = rng.integers(0, vocab, (2, seq), dtype=np.int32)

    def loss_fn(p, tokens, targets):
        x = p["wte"][tokens] + p["wpe"]
        h = layer_norm(gpt2_block(p["block"], x), p["lnf_g"], p["lnf_b"])
        return cross_entropy(h @ p["wte"].T, targets)

    def step(params, m, v, count, tokens, targets):
        loss, grads = jax.value_and_grad(loss_fn)(params, tokens, targets)
        return (loss, *adam(params, grads, m, v, count))

    args = (params, m, v, np.int32(9), tokens, targets)
    return step, args, "GPT-2 training step: embeddings, one block, tied LM head, cross-entropy; value_and_grad then Adam (step 10) on every parameter"


def lm_loss_grad(rng, vocab=64, seq=16, d=32):
    params = {"emb": normal(rng, vocab, d, scale=0.1), "w1": weight(rng, d, 64), "b1": normal(rng, 64, scale=0.02),
              "w_out": weight(rng, 64, vocab), "b_out": normal(rng, vocab, scale=0.02)}
    tokens = rng.integers(0, vocab, (4, seq), dtype=np.int32)
    targets = rng.integers(0, vocab, (4, seq), dtype=np.int32)

    def loss_fn(p, tokens, targets):
        h = jnp.tanh(jnp.take(p["emb"], tokens, axis=0) @ p["w1"] + p["b1"])
        return cross_entropy(h @ p["w_out"] + p["b_out"], targets)

    def f(params, tokens, targets):
        return jax.value_and_grad(loss_fn)(params, tokens, targets)

    return f, (params, tokens, targets), "small LM loss and gradient: embedding lookup, tanh MLP, log-softmax cross-entropy via take_along_axis; batch 4, seq 16, vocab 64"


def cnn_params(rng):
    return {"c1": weight(rng, 3, 3, 3, 8, fan_in=27), "b1": normal(rng, 8, scale=0.05),
            "c2": weight(rng, 3, 3, 8, 16, fan_in=72), "b2": normal(rng, 16, scale=0.05),
            "w": weight(rng, 64, 10), "b": normal(rng, 10, scale=0.05)}


def cnn_apply(p, x):
    h = max_pool(jax.nn.relu(conv(x, p["c1"]) + p["b1"]))
    h = max_pool(jax.nn.relu(conv(h, p["c2"]) + p["b2"]))
    return h.reshape(h.shape[0], -1) @ p["w"] + p["b"]


def cnn_forward(rng):
    return cnn_apply, (cnn_params(rng), normal(rng, 2, 8, 8, 3)), "CNN forward: two 3x3 conv + ReLU + 2x2 max-pool, dense head; 2x8x8x3 NHWC images, 8 and 16 channels"


def cnn_train_step(rng):
    labels = rng.integers(0, 10, (4,), dtype=np.int32)

    def step(p, x, labels):
        loss, g = jax.value_and_grad(lambda p: cross_entropy(cnn_apply(p, x), labels))(p)
        return loss, jax.tree_util.tree_map(lambda p, g: p - 0.05 * g, p, g)

    return step, (cnn_params(rng), normal(rng, 4, 8, 8, 3), labels), "CNN training step: value_and_grad of cross-entropy through conv/ReLU/max-pool (select-and-scatter in the backward pass), SGD update"


def mobilenet_block(rng, c=8, e=16):
    def bn(prefix, n):
        return {f"{prefix}_g": 1 + normal(rng, n, scale=0.1), f"{prefix}_b": normal(rng, n, scale=0.1),
                f"{prefix}_m": normal(rng, n, scale=0.1), f"{prefix}_v": 1 + np.abs(normal(rng, n, scale=0.2))}

    params = {"expand": weight(rng, 1, 1, c, e, fan_in=c), "dw": weight(rng, 3, 3, 1, e, fan_in=9),
              "project": weight(rng, 1, 1, e, c, fan_in=e), **bn("bn1", e), **bn("bn2", e), **bn("bn3", c)}

    def f(p, x):
        def norm(h, k):
            return (h - p[f"{k}_m"]) * lax.rsqrt(p[f"{k}_v"] + 1e-3) * p[f"{k}_g"] + p[f"{k}_b"]

        h = jnp.clip(norm(conv(x, p["expand"]), "bn1"), 0, 6)
        h = jnp.clip(norm(conv(h, p["dw"], groups=e), "bn2"), 0, 6)
        return x + norm(conv(h, p["project"]), "bn3")

    return f, (params, normal(rng, 2, 8, 8, c)), "MobileNetV2 inverted residual: 1x1 expand, 3x3 depthwise (feature_group_count=16), 1x1 project, inference batch norm, ReLU6, residual"


def lstm_scan(rng, seq=16, batch=4, n_in=8, hidden=16):
    params = {"w": weight(rng, n_in + hidden, 4 * hidden), "b": normal(rng, 4 * hidden, scale=0.05)}

    def f(p, xs, h0, c0):
        def cell(carry, x):
            h, c = carry
            z = jnp.concatenate([x, h], axis=-1) @ p["w"] + p["b"]
            i, fg, g, o = jnp.split(z, 4, axis=-1)
            c = jax.nn.sigmoid(fg) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
            h = jax.nn.sigmoid(o) * jnp.tanh(c)
            return (h, c), h

        (h, c), hs = lax.scan(cell, (h0, c0), xs)
        return hs, h, c

    args = (params, normal(rng, seq, batch, n_in), normal(rng, batch, hidden, scale=0.1), normal(rng, batch, hidden, scale=0.1))
    return f, args, "LSTM over a sequence with lax.scan (a while loop): seq 16, batch 4, input 8, hidden 16; all hidden states and the final (h, c)"


def topk_sampling(rng, k=8):
    def f(key, logits):
        vals, idx = lax.top_k(logits / 0.8, k)
        choice = jax.random.categorical(jax.random.wrap_key_data(key), vals.astype(jnp.float32), axis=-1)
        return vals, idx, jnp.take_along_axis(idx, choice[:, None], axis=-1)[:, 0]

    return f, (key_data(7), normal(rng, 4, 64, scale=2.0)), "top-k sampling: temperature 0.8, lax.top_k (k=8), jax.random.categorical over the top-k logits with a fixed threefry key"


def rng_sampling(rng):
    def f(key, mu, log_sigma, x):
        k1, k2, k3 = jax.random.split(jax.random.wrap_key_data(key), 3)
        eps = jax.random.normal(k1, mu.shape, jnp.float32)
        if mu.dtype == jnp.float64:  # the same uniform bits, erf_inv in float64 (jax's normal)
            lo = np.nextafter(np.float32(-1), np.float32(0))
            u = jax.random.uniform(k1, mu.shape, jnp.float32, lo, 1.0).astype(mu.dtype)
            eps = math.sqrt(2) * lax.erf_inv(u)
        z = mu + jnp.exp(log_sigma) * eps
        u = jax.random.uniform(k2, mu.shape, jnp.float32)
        keep = jax.random.bernoulli(k3, jnp.float32(0.9), x.shape)  # float32 bits in the x64 run too
        return eps, z, u, keep, jnp.where(keep, x / 0.9, 0.0)

    args = (key_data(42), normal(rng, 16, 16), normal(rng, 16, 16, scale=0.3), normal(rng, 16, 16))
    return f, args, "jax.random with a fixed threefry key: split, normal (reparameterised z = mu + sigma*eps), uniform, bernoulli dropout mask applied to x"


def adam_step(rng):
    params = {"w1": weight(rng, 32, 32), "b1": normal(rng, 32, scale=0.02), "w2": weight(rng, 32, 8)}
    grads = jax.tree_util.tree_map(lambda p: normal(rng, *p.shape, scale=0.01), params)
    m = jax.tree_util.tree_map(lambda p: normal(rng, *p.shape, scale=0.005), params)
    v = jax.tree_util.tree_map(lambda p: np.abs(normal(rng, *p.shape, scale=0.01)) ** 2, params)
    return adam, (params, grads, m, v, np.int32(4)), "Adam step on a parameter pytree (bias-corrected, step 5): new params, first and second moments, step count"


def mixed_precision_step(rng):
    params = {"w1": weight(rng, 32, 64), "b1": normal(rng, 64, scale=0.02), "w2": weight(rng, 64, 8)}

    def loss_fn(p, x, y):
        acc = x.dtype  # float32 accumulation (float64 in the reference run)
        h = lax.dot(x.astype(BF16), p["w1"].astype(BF16), preferred_element_type=acc) + p["b1"]
        h = jax.nn.gelu(h).astype(BF16)
        out = lax.dot(h, p["w2"].astype(BF16), preferred_element_type=acc)
        return ((out - y) ** 2).mean()

    def step(p, x, y, scale):
        loss, g = jax.value_and_grad(lambda p: loss_fn(p, x, y) * scale)(p)
        g = jax.tree_util.tree_map(lambda g: g / scale, g)
        finite = jnp.all(jnp.array([jnp.all(jnp.isfinite(t)) for t in jax.tree_util.tree_leaves(g)]))
        new = jax.tree_util.tree_map(lambda p, g: jnp.where(finite, p - 0.01 * g, p), p, g)
        return loss / scale, new, finite, jnp.where(finite, scale, scale / 2)

    args = (params, normal(rng, 16, 32), normal(rng, 16, 8), np.float32(1024.0))
    return step, args, "mixed precision step: bf16 matmuls with f32 accumulation (preferred_element_type), loss scaling 1024, unscale, all-finite check, conditional SGD update"


def resnet_block_bn(rng, c=8):
    def bn(k):
        return {f"{k}_g": 1 + normal(rng, c, scale=0.1), f"{k}_b": normal(rng, c, scale=0.1),
                f"{k}_mean": normal(rng, c, scale=0.1), f"{k}_var": 1 + np.abs(normal(rng, c, scale=0.2))}

    params = {"c1": weight(rng, 3, 3, c, c, fan_in=9 * c), "c2": weight(rng, 3, 3, c, c, fan_in=9 * c), **bn("bn1"), **bn("bn2")}

    def f(p, x):
        stats = {}

        def batch_norm(h, k):
            mean = h.mean((0, 1, 2))
            var = ((h - mean) ** 2).mean((0, 1, 2))
            n = h.size // h.shape[-1]
            stats[f"{k}_mean"] = 0.9 * p[f"{k}_mean"] + 0.1 * mean
            stats[f"{k}_var"] = 0.9 * p[f"{k}_var"] + 0.1 * var * n / (n - 1)
            return (h - mean) * lax.rsqrt(var + 1e-5) * p[f"{k}_g"] + p[f"{k}_b"]

        h = jax.nn.relu(batch_norm(conv(x, p["c1"]), "bn1"))
        y = jax.nn.relu(x + batch_norm(conv(h, p["c2"]), "bn2"))
        return y, stats

    return f, (params, normal(rng, 2, 8, 8, c)), "ResNet basic block, batch norm in training mode (batch statistics, updated running mean/var returned); 2x8x8x8"


def unet_up_block(rng):
    params = {"up": weight(rng, 2, 2, 16, 8, fan_in=64), "up_b": normal(rng, 8, scale=0.05),
              "c": weight(rng, 3, 3, 16, 8, fan_in=144), "c_b": normal(rng, 8, scale=0.05)}

    def f(p, x, skip):
        up = lax.conv_transpose(x, p["up"], (2, 2), "VALID", dimension_numbers=CONV_DIMS) + p["up_b"]
        h = jnp.concatenate([up, skip], axis=-1)
        return jax.nn.relu(conv(h, p["c"]) + p["c_b"])

    return f, (params, normal(rng, 2, 4, 4, 16), normal(rng, 2, 8, 8, 8)), "U-Net up block: 2x2 stride-2 transposed convolution 4x4x16 -> 8x8x8, concatenate the skip, 3x3 conv + ReLU"


def kv_cache_decode(rng, d=32, heads=4, max_len=16, pos=5):
    hd = d // heads
    params = {k: weight(rng, d, d) for k in ("wq", "wk", "wv", "wo")}
    cache_k = np.zeros((2, max_len, heads, hd), np.float32)
    cache_v = np.zeros((2, max_len, heads, hd), np.float32)
    cache_k[:, :pos] = normal(rng, 2, pos, heads, hd)
    cache_v[:, :pos] = normal(rng, 2, pos, heads, hd)

    def f(p, x, cache_k, cache_v, pos):
        b = x.shape[0]
        q, k, v = ((x @ p[w]).reshape(b, 1, heads, hd) for w in ("wq", "wk", "wv"))
        zero = jnp.zeros((), pos.dtype)
        cache_k = lax.dynamic_update_slice(cache_k, k, (zero, pos, zero, zero))
        cache_v = lax.dynamic_update_slice(cache_v, v, (zero, pos, zero, zero))
        scores = jnp.einsum("bqhd,bkhd->bhqk", q, cache_k) / math.sqrt(hd)
        scores = jnp.where(jnp.arange(max_len) <= pos, scores, -1e9)
        out = jnp.einsum("bhqk,bkhd->bqhd", jax.nn.softmax(scores, axis=-1), cache_v).reshape(b, d)
        return out @ p["wo"], cache_k, cache_v

    args = (params, normal(rng, 2, d), cache_k, cache_v, np.int32(pos))
    return f, args, "attention decode step with a KV cache: project one token, dynamic_update_slice it into the [2,16,4,8] caches at a runtime position, masked attention over the cache"


def moe_layer(rng, tokens=16, d=32, experts=4, ff=64, k=2, capacity=8):
    params = {"router": weight(rng, d, experts), "w1": weight(rng, experts, d, ff, fan_in=d),
              "w2": weight(rng, experts, ff, d, fan_in=ff)}

    def f(p, x):
        probs = jax.nn.softmax(x @ p["router"], axis=-1)
        gates, expert = lax.top_k(probs, k)
        gates = gates / gates.sum(-1, keepdims=True)
        e_flat, g_flat = expert.reshape(-1), gates.reshape(-1)
        tok = jnp.repeat(jnp.arange(tokens), k)
        onehot = jax.nn.one_hot(e_flat, experts, dtype=jnp.int32)
        slot = ((jnp.cumsum(onehot, axis=0) - 1) * onehot).sum(-1)
        keep = slot < capacity
        buf = jnp.zeros((experts, capacity, d), x.dtype).at[e_flat, slot].set(x[tok], mode="drop")
        h = jax.nn.gelu(jnp.einsum("ecd,edf->ecf", buf, p["w1"]))
        out = jnp.einsum("ecf,efd->ecd", h, p["w2"])
        back = out[e_flat, jnp.minimum(slot, capacity - 1)] * jnp.where(keep, g_flat, 0.0)[:, None]
        y = jnp.zeros_like(x).at[tok].add(back)
        load = onehot.astype(x.dtype).mean(0) * experts / k
        return y, (probs.mean(0) * load).sum() * experts, expert

    return f, (params, normal(rng, tokens, d)), "mixture-of-experts layer: softmax router, top-2 (lax.top_k), capacity-8 dispatch by scatter into [experts, capacity, d], batched expert MLPs, gather and scatter-add combine, load-balancing loss"


def diffusion_unet_block(rng, c=16, groups=4, t_dim=32):
    params = {"t1": weight(rng, t_dim, 64), "t1_b": normal(rng, 64, scale=0.02), "t2": weight(rng, 64, c),
              "t2_b": normal(rng, c, scale=0.02), "c1": weight(rng, 3, 3, c, c, fan_in=9 * c),
              "c2": weight(rng, 3, 3, c, c, fan_in=9 * c), "wq": weight(rng, c, c), "wk": weight(rng, c, c),
              "wv": weight(rng, c, c), "wo": weight(rng, c, c)}
    for i in range(3):
        params[f"gn{i}_g"] = 1 + normal(rng, c, scale=0.1)
        params[f"gn{i}_b"] = normal(rng, c, scale=0.1)

    def f(p, x, t):
        half = t_dim // 2
        freqs = jnp.exp(-math.log(10000.0) * jnp.arange(half, dtype=x.dtype) / half)
        angles = t[:, None] * freqs
        temb = jnp.concatenate([jnp.sin(angles), jnp.cos(angles)], axis=-1)
        temb = jax.nn.silu(temb @ p["t1"] + p["t1_b"]) @ p["t2"] + p["t2_b"]
        h = conv(jax.nn.silu(group_norm(x, p["gn0_g"], p["gn0_b"], groups)), p["c1"]) + temb[:, None, None, :]
        h = x + conv(jax.nn.silu(group_norm(h, p["gn1_g"], p["gn1_b"], groups)), p["c2"])
        n, hh, ww, _ = h.shape
        a = group_norm(h, p["gn2_g"], p["gn2_b"], groups).reshape(n, hh * ww, c)
        q, k, v = a @ p["wq"], a @ p["wk"], a @ p["wv"]
        att = jax.nn.softmax(jnp.einsum("nqc,nkc->nqk", q, k) / math.sqrt(c), axis=-1)
        return h + (jnp.einsum("nqk,nkc->nqc", att, v) @ p["wo"]).reshape(h.shape)

    t = rng.uniform(0, 1000, (2,)).astype(np.float32)
    return f, (params, normal(rng, 2, 8, 8, c), t), "diffusion UNet block: sinusoidal timestep embedding + MLP, group norm (4 groups), SiLU, 3x3 convs, residual, spatial self-attention over 64 positions; 2x8x8x16"


PROGRAMS = {f.__name__: f for f in (
    gpt2_block_forward, gpt2_train_step, lm_loss_grad, cnn_forward, cnn_train_step, mobilenet_block,
    lstm_scan, topk_sampling, rng_sampling, adam_step, mixed_precision_step, resnet_block_bn,
    unet_up_block, kv_cache_decode, moe_layer, diffusion_unet_block)}
