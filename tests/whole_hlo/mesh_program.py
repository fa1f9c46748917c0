"""A jax program partitioned over a 2x2 device mesh, compiled by jaxlib on 4 forced host
devices (XLA_FLAGS=--xla_force_host_platform_device_count=4, in a child process so this
process's jax keeps its one device). Run this file to record the fixture again:

    PYTHONPATH=. .venv/bin/python tests/whole_hlo/mesh_program.py
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

FIXTURE = Path(__file__).parent / "dumps" / "mesh_2x2_mlp.compiled.hlo"

# A two-layer MLP: the batch split over mesh axis "data", the hidden units over "model", so
# the compiled SPMD module has the collectives a real sharded program has.
PROGRAM = r'''
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
mesh = Mesh(np.array(jax.devices()).reshape(2, 2), ("data", "model"))
def mlp(x, w1, w2):
    h = jax.nn.relu(x @ w1)
    return jnp.mean((h @ w2) ** 2)
shard = lambda *spec: NamedSharding(mesh, P(*spec))
f = jax.jit(mlp, in_shardings=(shard("data", None), shard(None, "model"), shard("model", None)),
            out_shardings=shard())
x, w1, w2 = np.ones((8, 16), np.float32), np.ones((16, 32), np.float32), np.ones((32, 4), np.float32)
print(f.lower(x, w1, w2).compile().as_text())
'''


def record() -> str:
    """The compiled HLO text of PROGRAM, from a child process with 4 host devices."""
    env = dict(os.environ, XLA_FLAGS="--xla_force_host_platform_device_count=4", JAX_PLATFORMS="cpu")
    done = subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True, text=True, timeout=300)
    if done.returncode:
        raise RuntimeError(f"the mesh program failed:\n{done.stderr[-2000:]}")
    return done.stdout


if __name__ == "__main__":
    FIXTURE.write_text(record())
    print(f"wrote {FIXTURE}")
