"""Run as a script (by test_capture_on_a_mesh.py, in a process of its own, since JAX fixes its
device count when it starts): a 2x2-mesh MLP and a data-parallel step captured from XLA on 4
forced host devices; prints, as JSON, what the test checks."""

import json

import jax

jax.config.update("jax_num_cpu_devices", 4)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import hloscope  # noqa: E402

mesh = Mesh(np.array(jax.devices()).reshape(2, 2), ("data", "model"))


def sharded(*spec):
    return NamedSharding(mesh, P(*spec))


def mlp(x, w1, w2):
    return jnp.tanh(x @ w1) @ w2


def dp_step(w, x, y):
    loss = lambda w: ((jnp.tanh(x @ w) - y) ** 2).mean()  # noqa: E731
    return w - 0.1 * jax.grad(loss)(w), loss(w)


rng = np.random.default_rng(0)
programs = {
    "mlp_2x2": (jax.jit(mlp, in_shardings=(sharded("data", None), sharded(None, "model"), sharded("model", None)),
                        out_shardings=sharded("data", None)),
                [rng.standard_normal(s).astype(np.float32) for s in ((8, 16), (16, 32), (32, 8))]),
    "dp_step": (jax.jit(dp_step, in_shardings=(sharded(), sharded(("data", "model"), None),
                                               sharded(("data", "model"), None)),
                        out_shardings=(sharded(), sharded())),
                [rng.standard_normal(s).astype(np.float32) for s in ((16, 8), (16, 16), (16, 8))]),
}
report = {"devices": len(jax.devices())}
for name, (fn, args) in programs.items():
    record = hloscope.xla.capture(fn, *args)
    comparison = hloscope.xla.compare_partitioning(record)
    outputs = jax.tree_util.tree_leaves(fn(*args))
    per_device = record.optimized_module
    shards = []  # each device's arguments, as JAX placed them
    placed = [jax.device_put(a, s) for a, s in zip(args, fn.lower(*args).compile().input_shardings[0])]
    for d in range(4):
        device = jax.devices()[d]
        shards.append(tuple(np.asarray(next(s.data for s in a.addressable_shards if s.device == device))
                            for a in placed))
    got = hloscope.compile_sharded(per_device, cache=False).run_sharded(shards)
    errors = []
    for d in range(4):
        device = jax.devices()[d]
        mine = got[d] if isinstance(got[d], tuple) else (got[d],)
        for out, value in zip(outputs, mine):
            want = np.asarray(next(s.data for s in out.addressable_shards if s.device == device))
            errors.append(float(np.max(np.abs(np.asarray(value, np.float64) - want))))
    from hloscope.jupyter.panels import MeshPanel, is_mesh_program

    panel = MeshPanel()
    panel.update(record)
    shown = panel.html.value
    report[name + "_tab"] = {"applies": is_mesh_program(record), "same": "the same collectives" in shown,
                             "mesh": "mesh: 4 devices" in shown}
    versus = hloscope.xla.compare(fn, *args)  # the "vs XLA" tab of the same program
    report[name + "_vs_xla"] = versus.partitioning is not None and "partitioned by hloscope and by XLA" in versus.html()
    report[name] = {"differences": comparison.differences(), "counts": len(comparison.counts),
                    "partitions": str(per_device.attrs.get("num_partitions")), "max_error": max(errors)}
print(json.dumps(report))
