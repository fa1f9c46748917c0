"""One program over many devices: shardings (sharding.py) and hloscope's own SPMD partitioner
(partitioner.py), whose per-device module `hloscope.evaluate(module, shards)` runs as every
device of the mesh.

    per_device, log = hloscope.spmd.partition(module)     # module: parameters with sharding={...}
    for line in log.lines(): print(line)                  # each sharding chosen, each collective and why
    hloscope.mesh_view(per_device, before=module, log=log)        # the mesh, tiles, collectives and costs
"""

from __future__ import annotations

from .partitioner import SpmdPartitioner, partition
from .sharding import Sharding, parse_sharding

__all__ = ["Sharding", "SpmdPartitioner", "parse_sharding", "partition"]
