"""Programs built from other people's model code: flax, equinox, optax, keras (JAX backend)
and haiku, as their users write them. make_library_models.py lowers each with JAX and records
XLA's outputs; tests/test_library_models.py takes them through every hloscope stage.

Each entry is `name -> make(rng) -> (function, arguments)`, the arguments a pytree of numpy
arrays (the function's parameters and inputs alike, so nothing is baked in as a constant).
Sizes are small, so that the reference evaluator runs each in about a second.

Imported only by the generator, which needs the libraries; the tests read its files.
"""

from __future__ import annotations

import os

os.environ.setdefault("KERAS_BACKEND", "jax")

import numpy as np  # noqa: E402


def normal(rng: np.random.Generator, *shape: int, scale: float = 1.0) -> np.ndarray:
    return (rng.standard_normal(shape) * scale).astype(np.float32)


# ---- flax ----

def _flax_init(module, rng, *example):
    import jax

    return jax.tree_util.tree_map(np.asarray, module.init(jax.random.PRNGKey(int(rng.integers(1 << 30))), *example))


def flax_mlp(rng):
    import flax.linen as nn

    class MLP(nn.Module):
        @nn.compact
        def __call__(self, x):
            x = nn.gelu(nn.Dense(64)(x))
            return nn.Dense(10)(nn.LayerNorm()(x))

    x = normal(rng, 8, 32)
    model = MLP()
    return (lambda params, x: model.apply(params, x)), (_flax_init(model, rng, x), x)


def flax_attention_block(rng):
    import flax.linen as nn

    class Block(nn.Module):
        @nn.compact
        def __call__(self, x):
            mask = nn.make_causal_mask(x[..., 0])
            h = nn.MultiHeadDotProductAttention(num_heads=4)(nn.LayerNorm()(x), mask=mask)
            x = x + h
            return x + nn.Dense(32)(nn.gelu(nn.Dense(64)(nn.LayerNorm()(x))))

    x = normal(rng, 2, 16, 32)
    model = Block()
    return (lambda params, x: model.apply(params, x)), (_flax_init(model, rng, x), x)


def flax_lstm(rng):
    import flax.linen as nn

    class Encoder(nn.Module):
        @nn.compact
        def __call__(self, xs):
            return nn.RNN(nn.OptimizedLSTMCell(16))(xs)

    xs = normal(rng, 4, 12, 8)
    model = Encoder()
    return (lambda params, xs: model.apply(params, xs)), (_flax_init(model, rng, xs), xs)


def flax_gru_bidirectional(rng):
    import flax.linen as nn

    class Encoder(nn.Module):
        @nn.compact
        def __call__(self, xs):
            return nn.Bidirectional(nn.RNN(nn.GRUCell(12)), nn.RNN(nn.GRUCell(12)))(xs)

    xs = normal(rng, 3, 10, 6)
    model = Encoder()
    return (lambda params, xs: model.apply(params, xs)), (_flax_init(model, rng, xs), xs)


def flax_batchnorm_train_step(rng):
    import flax.linen as nn
    import jax
    import optax

    class CNN(nn.Module):
        @nn.compact
        def __call__(self, x):
            x = nn.Conv(8, (3, 3))(x)
            x = nn.relu(nn.BatchNorm(use_running_average=False, momentum=0.9)(x))
            return nn.Dense(10)(x.mean(axis=(1, 2)))

    x, labels = normal(rng, 4, 8, 8, 3), rng.integers(0, 10, 4).astype(np.int32)
    model, opt = CNN(), optax.sgd(0.1, momentum=0.9)
    variables = _flax_init(model, rng, x)
    opt_state = jax.tree_util.tree_map(np.asarray, opt.init(variables["params"]))

    def step(variables, opt_state, x, labels):
        def loss(params):
            logits, updates = model.apply({**variables, "params": params}, x, mutable=["batch_stats"])
            return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean(), updates

        (value, updates), grads = jax.value_and_grad(loss, has_aux=True)(variables["params"])
        changes, opt_state = opt.update(grads, opt_state)
        params = optax.apply_updates(variables["params"], changes)
        return value, {"params": params, **updates}, opt_state

    return step, (variables, opt_state, x, labels)


# ---- equinox ----

def eqx_mlp(rng):
    import equinox as eqx
    import jax

    model = eqx.nn.MLP(16, 4, width_size=32, depth=2, activation=jax.nn.silu,
                       key=jax.random.PRNGKey(int(rng.integers(1 << 30))))
    params, static = eqx.partition(model, eqx.is_array)
    params = jax.tree_util.tree_map(np.asarray, params)
    x = normal(rng, 8, 16)
    return (lambda params, x: jax.vmap(eqx.combine(params, static))(x)), (params, x)


def eqx_gru_scan(rng):
    import equinox as eqx
    import jax

    cell = eqx.nn.GRUCell(6, 10, key=jax.random.PRNGKey(int(rng.integers(1 << 30))))
    params, static = eqx.partition(cell, eqx.is_array)
    params = jax.tree_util.tree_map(np.asarray, params)
    xs = normal(rng, 14, 6)

    def run(params, xs):
        cell = eqx.combine(params, static)

        def step(h, x):
            h = cell(x, h)
            return h, h

        return jax.lax.scan(step, np.zeros(10, np.float32), xs)[1]

    return run, (params, xs)


def eqx_conv_train_step(rng):
    import equinox as eqx
    import jax
    import jax.numpy as jnp
    import optax

    keys = jax.random.split(jax.random.PRNGKey(int(rng.integers(1 << 30))), 2)
    model = eqx.nn.Sequential([eqx.nn.Conv2d(3, 6, 3, padding=1, key=keys[0]), eqx.nn.Lambda(jax.nn.relu),
                               eqx.nn.Lambda(lambda h: h.mean(axis=(1, 2))), eqx.nn.Linear(6, 5, key=keys[1])])
    params, static = eqx.partition(model, eqx.is_array)
    params = jax.tree_util.tree_map(np.asarray, params)
    opt = optax.adamw(1e-2)
    opt_state = jax.tree_util.tree_map(np.asarray, opt.init(params))
    x, y = normal(rng, 4, 3, 8, 8), rng.integers(0, 5, 4).astype(np.int32)

    def step(params, opt_state, x, y):
        def loss(params):
            logits = jax.vmap(eqx.combine(params, static))(x)
            return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()

        value, grads = jax.value_and_grad(loss)(params)
        updates, opt_state = opt.update(grads, opt_state, params)
        return value, optax.apply_updates(params, updates), opt_state

    del jnp
    return step, (params, opt_state, x, y)


# ---- optax ----

def _optimizer_step(rng, opt):
    import jax

    params = {"w": normal(rng, 16, 8), "b": normal(rng, 8)}
    grads = {"w": normal(rng, 16, 8), "b": normal(rng, 8)}
    state = jax.tree_util.tree_map(np.asarray, opt.init(params))

    def step(params, state, grads):
        import optax

        updates, state = opt.update(grads, state, params)
        return optax.apply_updates(params, updates), state

    state = jax.tree_util.tree_map(np.asarray, jax.jit(step)(params, state, grads)[1])  # a state past step 0
    return step, (params, state, grads)


def optax_adam(rng):
    import optax

    return _optimizer_step(rng, optax.adam(1e-3))


def optax_adafactor(rng):
    import optax

    return _optimizer_step(rng, optax.adafactor(1e-2))


def optax_lion(rng):
    import optax

    return _optimizer_step(rng, optax.lion(1e-4, weight_decay=1e-2))


def optax_clipped_sgd(rng):
    import optax

    return _optimizer_step(rng, optax.chain(optax.clip_by_global_norm(1.0), optax.sgd(0.1, momentum=0.9, nesterov=True)))


def optax_ctc_loss(rng):
    import optax

    logits = normal(rng, 3, 20, 6)
    labels = rng.integers(1, 6, (3, 7)).astype(np.int32)
    logit_pad = np.zeros((3, 20), np.float32)
    logit_pad[1, 16:] = 1.0
    label_pad = np.zeros((3, 7), np.float32)
    label_pad[2, 5:] = 1.0
    return optax.ctc_loss, (logits, logit_pad, labels, label_pad)


def optax_smoothed_cross_entropy(rng):
    import optax

    def f(logits, labels):
        smooth = optax.smooth_labels(labels, 0.1)
        return optax.softmax_cross_entropy(logits, smooth).mean()

    labels = np.eye(10, dtype=np.float32)[rng.integers(0, 10, 16)]
    return f, (normal(rng, 16, 10), labels)


# ---- keras (JAX backend) ----

def _keras_stateless(rng, layers, x):
    import keras

    keras.utils.set_random_seed(int(rng.integers(1 << 30)))
    model = keras.Sequential(layers)
    model.build(x.shape)
    trainable = [np.asarray(v.value) for v in model.trainable_variables]
    fixed = [np.asarray(v.value) for v in model.non_trainable_variables]

    def run(trainable, fixed, x):
        return model.stateless_call(trainable, fixed, x, training=True)

    return run, (trainable, fixed, x)


def keras_lstm(rng):
    import keras

    return _keras_stateless(rng, [keras.layers.LSTM(16, return_sequences=True), keras.layers.Dense(4)],
                            normal(rng, 4, 10, 8))


def keras_gru(rng):
    import keras

    return _keras_stateless(rng, [keras.layers.GRU(12, return_sequences=False)], normal(rng, 3, 9, 5))


def keras_conv_batchnorm(rng):
    import keras

    return _keras_stateless(rng, [keras.layers.Conv2D(8, 3, padding="same"), keras.layers.BatchNormalization(),
                                  keras.layers.ReLU(), keras.layers.GlobalAveragePooling2D()],
                            normal(rng, 2, 8, 8, 3))


def keras_ctc_loss(rng):
    import keras

    loss = keras.losses.CTC()
    labels = rng.integers(1, 7, (4, 6)).astype(np.int32)
    return (lambda labels, logits: loss(labels, logits)), (labels, normal(rng, 4, 15, 8))


# ---- haiku ----

def _haiku(rng, forward, *example):
    import haiku as hk
    import jax

    f = hk.transform(forward)
    params = jax.tree_util.tree_map(np.asarray, f.init(jax.random.PRNGKey(int(rng.integers(1 << 30))), *example))
    return (lambda params, *xs: f.apply(params, None, *xs)), (params, *example)


def haiku_mlp(rng):
    import haiku as hk
    import jax

    return _haiku(rng, lambda x: hk.nets.MLP([32, 32, 5], activation=jax.nn.gelu)(x), normal(rng, 8, 12))


def haiku_lstm_unroll(rng):
    import haiku as hk

    def forward(xs):
        core = hk.LSTM(10)
        return hk.dynamic_unroll(core, xs, core.initial_state(xs.shape[1]))[0]

    return _haiku(rng, forward, normal(rng, 11, 3, 7))


def haiku_batchnorm(rng):
    import haiku as hk
    import jax

    f = hk.transform_with_state(lambda x: hk.BatchNorm(True, True, 0.9)(x, is_training=True))
    x = normal(rng, 16, 6)
    params, state = f.init(jax.random.PRNGKey(int(rng.integers(1 << 30))), x)
    params, state = (jax.tree_util.tree_map(np.asarray, t) for t in (params, state))
    return (lambda params, state, x: f.apply(params, state, None, x)), (params, state, x)


PROGRAMS = {f.__name__: f for f in (
    flax_mlp, flax_attention_block, flax_lstm, flax_gru_bidirectional, flax_batchnorm_train_step,
    eqx_mlp, eqx_gru_scan, eqx_conv_train_step,
    optax_adam, optax_adafactor, optax_lion, optax_clipped_sgd, optax_ctc_loss, optax_smoothed_cross_entropy,
    keras_lstm, keras_gru, keras_conv_batchnorm, keras_ctc_loss,
    haiku_mlp, haiku_lstm_unroll, haiku_batchnorm,
)}
