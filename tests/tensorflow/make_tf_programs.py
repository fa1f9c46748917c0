"""Writes tests/tensorflow/: small real TensorFlow programs as TensorFlow's XLA bridge lowers them
to HLO, with TensorFlow's outputs, and one program's XLA dump under auto-clustering.

    python tests/tensorflow/make_tf_programs.py        # in an environment with tensorflow
                                                       # (pip install tensorflow-cpu), never by the tests

For each program NAME (PROGRAMS below), a `tf.function(jit_compile=True)`:
  NAME.hlo    `f.experimental_get_compiler_ir(*args)(stage="hlo")`, source paths made relative
  NAME.stablehlo.mlir   the same with stage="stablehlo"
  NAME.npz    arg0..: the HLO's parameters in order (the explicit arguments, then the values of
              the variables the function captures, as TensorFlow passes them to XLA); out0..:
              the HLO's outputs, flattened: the function's results, then the new value of each
              variable it assigns (TensorFlow appends those; the module's input_output_alias
              says which parameter each one updates), as TensorFlow computed them running f
  manifest.json  versions, the API, and each output's tolerance: rtol 1e-5 and an atol of 4x
              TensorFlow's own float32 error against the same program run in float64 (at least
              1e-6); integer outputs exact

autoclustered_dump/ is XLA's dump (`--xla_dump_to`, `--xla_dump_hlo_pass_re=.*`) of a plain
tf.function (no jit_compile) run under auto-clustering (TF_XLA_FLAGS="--tf_xla_auto_jit=2
--tf_xla_cpu_global_jit"), in a fresh process, pruned to the files hloscope.xla.load reads
(autoclustered_dump/README.md).
"""

from __future__ import annotations

import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

HERE = Path(__file__).resolve().parent
DUMP = HERE / "autoclustered_dump"
SEED = 20261205
RTOL, ATOL_FLOOR = 1e-5, 1e-6


def _normal(rng: np.random.Generator, *shape: int, scale: float = 1.0) -> np.ndarray:
    return (scale * rng.standard_normal(shape)).astype(np.float32)


# --- the programs: each builder(values, dtype) -> (tf.function, explicit args). `values` are the
# float32 numpy arrays the program starts from; dtype float64 builds the same program in float64
# (its reference run) ---------------------------------------------------------------------------

def keras_mlp_values(rng):
    return {"x": _normal(rng, 8, 16), "w1": _normal(rng, 16, 32, scale=0.25), "b1": _normal(rng, 32, scale=0.1),
            "w2": _normal(rng, 32, 10, scale=0.2), "b2": _normal(rng, 10, scale=0.1)}


def keras_mlp(v, dtype):
    """keras Dense(32, gelu) -> Dropout -> Dense(10) -> softmax, inference."""
    import keras

    model = keras.Sequential([keras.Input((16,), dtype=dtype), keras.layers.Dense(32, activation="gelu", dtype=dtype),
                              keras.layers.Dropout(0.5, dtype=dtype), keras.layers.Dense(10, dtype=dtype),
                              keras.layers.Softmax(dtype=dtype)])
    model.set_weights([v["w1"], v["b1"], v["w2"], v["b2"]])

    @tf.function(jit_compile=True)
    def f(x):
        return model(x, training=False)

    return f, [v["x"].astype(dtype)]


def conv_bn_values(rng):
    return {"x": _normal(rng, 2, 8, 8, 3), "k": _normal(rng, 3, 3, 3, 6, scale=0.3),
            "gamma": (1 + _normal(rng, 6, scale=0.1)), "beta": _normal(rng, 6, scale=0.1),
            "mean": np.zeros(6, np.float32), "var": np.ones(6, np.float32)}


def conv_bn(v, dtype):
    """conv2d -> fused batch norm (training: batch statistics, moving averages assigned) -> relu
    -> 2x2 max pool -> global mean. (Its float64 reference spells the batch norm out: TensorFlow's
    fused one has no float64 kernel.)"""
    moving_mean = tf.Variable(v["mean"].astype(dtype), name="moving_mean")
    moving_var = tf.Variable(v["var"].astype(dtype), name="moving_var")
    kernel, gamma, beta = (tf.constant(v[k].astype(dtype)) for k in ("k", "gamma", "beta"))

    @tf.function(jit_compile=True)
    def f(x):
        y = tf.nn.conv2d(x, kernel, strides=1, padding="SAME")
        if dtype == "float32":
            y, mean, var = tf.compat.v1.nn.fused_batch_norm(y, gamma, beta, epsilon=1e-3, is_training=True)
        else:  # FusedBatchNorm has no float64 kernel: its math, for the reference run
            mean, biased = tf.nn.moments(y, axes=[0, 1, 2])
            y = tf.nn.batch_normalization(y, mean, biased, beta, gamma, 1e-3)
            n = tf.cast(tf.size(y) // tf.size(mean), y.dtype)
            var = biased * n / (n - 1)  # the batch variance it returns is Bessel-corrected
        moving_mean.assign(0.9 * moving_mean + 0.1 * mean)
        moving_var.assign(0.9 * moving_var + 0.1 * var)
        y = tf.nn.max_pool2d(tf.nn.relu(y), ksize=2, strides=2, padding="VALID")
        return tf.reduce_mean(y, axis=[1, 2])

    return f, [v["x"].astype(dtype)]


def rnn_while_values(rng):
    return {"xs": _normal(rng, 6, 2, 4), "h0": np.zeros((2, 5), np.float32), "w": _normal(rng, 4, 5, scale=0.5),
            "u": _normal(rng, 5, 5, scale=0.5), "b": _normal(rng, 5, scale=0.1)}


def rnn_while(v, dtype):
    """An Elman RNN over 6 steps written with tf.while_loop and a TensorArray of hidden states."""

    @tf.function(jit_compile=True)
    def f(xs, h0, w, u, b):
        steps = tf.shape(xs)[0]
        states = tf.TensorArray(xs.dtype, size=steps)

        def body(t, h, states):
            h = tf.tanh(tf.matmul(xs[t], w) + tf.matmul(h, u) + b)
            return t + 1, h, states.write(t, h)

        _, h, states = tf.while_loop(lambda t, h, s: t < steps, body, (tf.constant(0), h0, states))
        return states.stack(), h

    return f, [v[k].astype(dtype) for k in ("xs", "h0", "w", "u", "b")]


def keras_lstm_values(rng):
    return {"x": _normal(rng, 2, 5, 3), "kernel": _normal(rng, 3, 16, scale=0.4),
            "recurrent": _normal(rng, 4, 16, scale=0.4), "bias": _normal(rng, 16, scale=0.1)}


def keras_lstm(v, dtype):
    """keras LSTM(4) over 5 steps, returning the sequence and the final states."""
    import keras

    layer = keras.layers.LSTM(4, return_sequences=True, return_state=True, dtype=dtype)
    layer.build((2, 5, 3))
    layer.set_weights([v["kernel"], v["recurrent"], v["bias"]])

    @tf.function(jit_compile=True)
    def f(x):
        return layer(x)

    return f, [v["x"].astype(dtype)]


def train_step_values(rng):
    return {"x": _normal(rng, 8, 6), "y": _normal(rng, 8, 3), "w1": _normal(rng, 6, 12, scale=0.4),
            "b1": _normal(rng, 12, scale=0.1), "w2": _normal(rng, 12, 3, scale=0.3), "b2": _normal(rng, 3, scale=0.1)}


def train_step(v, dtype):
    """One Adam step of a keras MLP on a mean squared error, with tf.GradientTape: returns the
    loss; the weights, Adam's moments and its step count are assigned."""
    import keras

    model = keras.Sequential([keras.Input((6,), dtype=dtype), keras.layers.Dense(12, activation="tanh", dtype=dtype),
                              keras.layers.Dense(3, dtype=dtype)])
    model.set_weights([v["w1"], v["b1"], v["w2"], v["b2"]])
    optimizer = keras.optimizers.Adam(learning_rate=0.01)
    optimizer.build(model.trainable_variables)

    @tf.function(jit_compile=True)
    def f(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x, training=True) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss

    return f, [v["x"].astype(dtype), v["y"].astype(dtype)]


def softmax_xent_values(rng):
    return {"logits": _normal(rng, 8, 10, scale=2.0), "labels": rng.integers(0, 10, 8).astype(np.int32)}


def softmax_xent(v, dtype):
    """Sparse and dense softmax cross-entropy, the gradient of their sum with respect to the
    logits, and the accuracy of argmax (int64 predictions)."""

    @tf.function(jit_compile=True)
    def f(logits, labels):
        with tf.GradientTape() as tape:
            tape.watch(logits)
            sparse = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
            dense = tf.nn.softmax_cross_entropy_with_logits(labels=tf.one_hot(labels, 10, dtype=logits.dtype),
                                                            logits=0.5 * logits)
            loss = tf.reduce_mean(sparse) + tf.reduce_mean(dense)
        predicted = tf.argmax(logits, axis=1)
        accuracy = tf.reduce_mean(tf.cast(tf.equal(predicted, tf.cast(labels, tf.int64)), logits.dtype))
        return loss, tape.gradient(loss, logits), predicted, accuracy

    return f, [v["logits"].astype(dtype), v["labels"]]


PROGRAMS = {
    "keras_mlp": (keras_mlp_values, keras_mlp),
    "conv_bn": (conv_bn_values, conv_bn),
    "rnn_while": (rnn_while_values, rnn_while),
    "keras_lstm": (keras_lstm_values, keras_lstm),
    "train_step": (train_step_values, train_step),
    "softmax_xent": (softmax_xent_values, softmax_xent),
}


# --- recording --------------------------------------------------------------------------------------

_ALIAS = re.compile(r"\{(\d+)\}: \((\d+), \{\}, (?:may|must)-alias\)")


def _header(hlo: str) -> str:
    return hlo.split("\n", 1)[0]


def _param_values(f, args) -> list[np.ndarray]:
    """The HLO's parameters: the concrete function's inputs in order, a captured variable's
    handle read for its value (TensorFlow passes XLA the variable's value)."""
    concrete = f.get_concrete_function(*args)
    captured = {id(internal): external for external, internal in concrete.graph.captures}
    values = [np.asarray(a) for a in args]
    for placeholder in concrete.inputs[len(args):]:
        external = captured[id(placeholder)]
        if external.dtype == tf.resource:
            dtype = tf.as_dtype(external._handle_data.shape_and_type[0].dtype)  # the variable's dtype
            values.append(tf.raw_ops.ReadVariableOp(resource=external, dtype=dtype).numpy())
        else:
            values.append(external.numpy())
    return values


def record(f, args) -> dict:
    hlo = f.experimental_get_compiler_ir(*args)(stage="hlo")
    stablehlo = f.experimental_get_compiler_ir(*args)(stage="stablehlo")
    params = _param_values(f, args)
    results = [np.asarray(r) for r in tf.nest.flatten(f(*args))]
    # the variables f assigned follow its results, each aliased to the parameter it updates
    aliases = sorted((int(o), int(p)) for o, p in _ALIAS.findall(_header(hlo)))
    assert [o for o, _ in aliases] == list(range(len(results), len(results) + len(aliases))), aliases
    after = _param_values(f, args)  # the captured variables read again, after the run
    outs = results + [after[p] for _, p in aliases]
    return {"hlo": hlo, "stablehlo": stablehlo, "args": params, "outs": outs}


def relative_paths(hlo: str) -> str:
    """source_file="/.../site-packages/tensorflow/..." -> "tensorflow/...", and this folder's
    files relative to the checkout."""
    hlo = re.sub(r'(source_file=|loc\()"[^"]*?/site-packages/', r'\1"', hlo)
    return hlo.replace(str(HERE.parents[1]) + "/", "")


def tolerance(out: np.ndarray, ref: np.ndarray) -> dict:
    if out.dtype.kind not in "fc":
        assert np.array_equal(out, ref), "an integer output differs between the float32 and float64 runs"
        return {"rtol": 0.0, "atol": 0.0}
    o, r = out.astype(np.float64), ref.astype(np.float64)
    abs_err = np.abs(o - r)
    beyond = float(np.max(abs_err - RTOL * np.abs(r), initial=0.0))
    return {"rtol": RTOL, "atol": float(max(ATOL_FLOOR, 4 * beyond)),
            "ref_max_abs_err": float(np.max(abs_err, initial=0.0)),
            "ref_max_rel_err": float(np.max(abs_err / np.maximum(np.abs(r), 1e-30), initial=0.0))}


def spec(name: str, a: np.ndarray) -> dict:
    return {"name": name, "shape": list(a.shape), "dtype": str(a.dtype)}


def make_programs() -> dict:
    import keras

    cases = {}
    for name, (values_of, build) in PROGRAMS.items():
        values = values_of(np.random.default_rng(SEED + sum(map(ord, name))))
        keras.utils.set_random_seed(SEED)
        made = record(*build(values, "float32"))
        keras.utils.set_random_seed(SEED)
        reference = record(*build(values, "float64"))
        assert len(reference["outs"]) == len(made["outs"])
        (HERE / f"{name}.hlo").write_text(relative_paths(made["hlo"]))
        (HERE / f"{name}.stablehlo.mlir").write_text(relative_paths(made["stablehlo"]))
        arrays = {f"arg{i}": a for i, a in enumerate(made["args"])} | {f"out{i}": a for i, a in enumerate(made["outs"])}
        np.savez_compressed(HERE / f"{name}.npz", **arrays)  # type: ignore[arg-type]
        cases[name] = {
            "description": textwrap.dedent(build.__doc__ or "").strip().replace("\n", " "),
            "inputs": [spec(f"arg{i}", a) for i, a in enumerate(made["args"])],
            "outputs": [spec(f"out{i}", o) | tolerance(o, ref)
                        for i, (o, ref) in enumerate(zip(made["outs"], reference["outs"]))],
        }
        print(f"{name}: {len(made['args'])} parameters, {len(made['outs'])} outputs, {len(made['hlo'])} chars of HLO")
    return cases


# --- auto-clustering -----------------------------------------------------------------------------------

AUTOCLUSTER_PROGRAM = '''
import numpy as np, tensorflow as tf

@tf.function  # no jit_compile: auto-clustering picks what XLA compiles
def f(x, w1, w2, gamma, beta):
    # grappler's remapper fuses this MatMul and its swish into one _FusedMatMul (as it would a
    # MatMul+BiasAdd), which XLA cannot compile: it stays out of the clusters
    h = tf.matmul(x, w1)
    h = h * tf.sigmoid(h)
    h = tf.matmul(h, w2) / (1.0 + tf.abs(h))  # the first cluster
    # numpy_function cannot be compiled by XLA: the second cluster starts after it
    h = tf.numpy_function(lambda a: np.sort(a, axis=-1), [h], tf.float32)
    h.set_shape([4, 8])
    mean, var = tf.nn.moments(h, axes=[-1], keepdims=True)
    y = (h - mean) * tf.math.rsqrt(var + 1e-5) * gamma + beta
    return tf.nn.softmax(y * 3.0)

rng = np.random.default_rng(0)
args = [rng.standard_normal(s).astype(np.float32) for s in ((4, 6), (6, 8), (8, 8), (8,), (8,))]
for _ in range(3):  # an auto-clustered cluster may be compiled only once it has run
    y = f(*args)
print(float(tf.reduce_sum(y)))
'''

DUMP_README = """# An auto-clustered TensorFlow program's XLA dump

XLA's own dump of the two clusters TensorFlow {tf} (tensorflow-cpu) compiled with XLA:CPU
for the plain `tf.function` below (no `jit_compile`), run in a fresh process by
`tests/tensorflow/make_tf_programs.py` with

    TF_XLA_FLAGS="--tf_xla_auto_jit=2 --tf_xla_cpu_global_jit"
    XLA_FLAGS="--xla_dump_to=DIR --xla_dump_hlo_pass_re=.*"

Neither the `numpy_function` nor the `_FusedMatMul` grappler makes of the first MatMul and its
swish can be compiled by XLA, so auto-clustering makes two clusters: the second MatMul and the
division (`cluster_1`, 2 parameters), and the layer norm and softmax after the numpy_function
(`cluster_0`, 3 parameters). Each cluster is an XLA module,
`module_NNNN.cluster_K__XlaCompiledKernel_true__..._.M` (TensorFlow's cluster function name; the
`.M` suffix is part of the HloModule's name). There are no bias adds on purpose: grappler would
fuse each MatMul+BiasAdd into a `_FusedMatMul` too, before auto-clustering looks at the graph.

```python
{program}
```

## What was kept, what was pruned

Kept: what `hloscope.xla.load` reads (hloscope/xla/dump_files.py, dump_record.py): the numbered
snapshots (`NNNN.<pipeline>.after_<A>.before_<B>.txt`), `before_optimizations.txt`,
`cpu_after_optimizations.txt`, its `-buffer-assignment.txt` and `-memory-usage-report.txt`, the
kernels' LLVM IR (`.ir-no-opt.ll`, `.ir-with-opt.ll`) and object files (`obj-file.*.o`, read for
their size). Pruned, as the loader does not read them (`<prefix>` is `module_NNNN.<cluster name>.`):

{pruned}

Differences from a jaxlib dump (tests/xla_dumps/gelu_mlp) that the loader handles: module names
hold a dot (`..._.1`), kernel names may too (`wrapped_reduce.1_kernel_module`); the
memory-usage report says `Total bytes used: N (...)` once, not `Total bytes: N` per memory space;
TensorFlow's XLA writes no `-live-range.txt`, so a record has no memory plan (`c.memory_plan` is
None). `tests/tensorflow/test_tensorflow_programs.py` loads every cluster.
"""

# what hloscope.xla.load reads (hloscope/xla/dump_files.py, dump_record.py): the rest is pruned
KEPT = re.compile(r"\.(\d{4,}\..*\.txt|before_optimizations\.txt|cpu_after_optimizations(-buffer-assignment"
                  r"|-live-range|-memory-usage-report)?\.txt|ir-(no|with)-opt\.ll|o)$")


def make_autoclustered_dump() -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "dump"
        env = dict(os.environ, TF_XLA_FLAGS="--tf_xla_auto_jit=2 --tf_xla_cpu_global_jit",
                   XLA_FLAGS=f"--xla_dump_to={folder} --xla_dump_hlo_pass_re=.*", TF_CPP_MIN_LOG_LEVEL="2")
        subprocess.run([sys.executable, "-c", AUTOCLUSTER_PROGRAM], env=env, check=True)
        files = sorted(p for p in folder.iterdir())
        kept = [p for p in files if p.is_file() and KEPT.search(p.name)]
        pruned = sorted({re.sub(r"^module_\d+\.cluster_\d+_[\w]*?\.\d+\.", "", p.name) for p in files if p not in kept})
        shutil.rmtree(DUMP, ignore_errors=True)
        DUMP.mkdir()
        for p in kept:
            shutil.copy2(p, DUMP / p.name)
    (DUMP / "README.md").write_text(DUMP_README.format(
        tf=tf.__version__, program=AUTOCLUSTER_PROGRAM.strip(),
        pruned="\n".join(f"- `<prefix>{p}`" for p in pruned)))
    modules = sorted({re.sub(r"\.\d{4,}\..*|\.before_optimizations.*|\.cpu_after_optimizations.*|\.[^.]*\.(ll|o)$", "",
                             p.name) for p in kept if p.name.endswith("before_optimizations.txt")})
    size = sum(p.stat().st_size for p in DUMP.iterdir())
    print(f"autoclustered_dump: {len(modules)} modules, {len(kept)} files kept, {size:,} bytes; pruned {pruned}")
    return {"program": AUTOCLUSTER_PROGRAM.strip(), "TF_XLA_FLAGS": env["TF_XLA_FLAGS"],
            "XLA_FLAGS": "--xla_dump_to=DIR --xla_dump_hlo_pass_re=.*", "modules": modules, "files": len(kept),
            "bytes": size, "pruned": pruned}


def main() -> None:
    import keras

    cases = make_programs()
    autocluster = make_autoclustered_dump()
    manifest = {
        "meta": {
            "generator": "tests/tensorflow/make_tf_programs.py",
            "generated_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "versions": {"tensorflow": tf.__version__, "keras": keras.__version__, "numpy": np.__version__},
            "python": platform.python_version(),
            "hlo_api": 'tf.function(f, jit_compile=True).experimental_get_compiler_ir(*args)(stage="hlo")',
            "stablehlo_api": 'tf.function(f, jit_compile=True).experimental_get_compiler_ir(*args)(stage="stablehlo")',
            "npz_layout": "arg0..: the HLO's parameters (explicit arguments, then captured variables' values); "
                          "out0..: the HLO's outputs (f's results flattened, then assigned variables' new values), "
                          "as TensorFlow computed them",
            "tolerance": "rtol 1e-5, atol 4x TensorFlow's float32 error against the program in float64 "
                         "(at least 1e-6); integer outputs exact",
            "seed": f"np.random.default_rng({SEED} + sum(map(ord, name)))",
        },
        "cases": cases,
        "autoclustered_dump": autocluster,
    }
    (HERE / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n")


if __name__ == "__main__":
    main()
