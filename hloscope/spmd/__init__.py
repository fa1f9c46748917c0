"""One program over many devices: shardings (sharding.py) and hloscope's own SPMD partitioner
(partitioner.py), whose per-device module `hloscope.evaluate(module, shards)` runs as every
device of the mesh.

    sharded = hloscope.spmd.shard(module, {"data": 2, "model": 2}, {"x": ("data", None)}, output=())
    per_device, log = hloscope.spmd.partition(sharded)    # or any module whose parameters carry sharding={...}
    for line in log.lines(): print(line)                  # each sharding chosen, each collective and why
    hloscope.mesh_view(per_device, before=sharded, log=log)       # the mesh, tiles, collectives and costs
    hloscope.evaluate(per_device, hloscope.spmd.shards_of(sharded, args))   # every device's outputs
"""

from __future__ import annotations

from .annotate import shard, shards_of
from .partitioner import SpmdPartitioner, partition
from .sharding import Sharding, parse_sharding

__all__ = ["Sharding", "SpmdPartitioner", "parse_sharding", "partition", "shard", "shards_of"]
