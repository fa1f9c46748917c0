"""Saying how arrays are split, in JAX's words, and splitting them.

    mesh = {"data": 2, "model": 2}                          # devices 0..3 as a 2x2 grid
    sharded = shard(module, mesh, {"x": ("data", None), "w1": (None, "model")}, output=())
    per_device, log = partition(sharded)
    outputs = hloscope.evaluate(per_device, shards_of(sharded, args))

A spec names, for each array dimension, the mesh axis it is split over (or None: whole), like
jax.sharding.PartitionSpec. `shard` writes the GSPMD sharding XLA would get from it on each
parameter (and `output=()` asks for whole results on every device); `shards_of` cuts each
argument into the tile each device holds.
"""

from __future__ import annotations

import re
from typing import Sequence

import numpy as np

from ..errors import HloscopeError
from ..ir import parse_hlo
from ..ir.module import HloModule
from ..ir.shape import ArrayShape
from .sharding import device_count_of, parse_sharding

Spec = Sequence["str | None"]


def sharding_text(spec: Spec, mesh: dict[str, int], rank: int) -> str:
    """The GSPMD text of a spec on a mesh: `{devices=[t0,t1,rep]d0,d1,... last_tile_dim_replicate}`."""
    spec = list(spec) + [None] * (rank - len(spec))
    axes = list(mesh)
    unknown = [a for a in spec if a is not None and a not in mesh]
    if unknown:
        raise HloscopeError(f"no mesh axis {unknown[0]!r}: the mesh has {axes}")
    used = [a for a in spec if a is not None]
    if not used:
        return "{replicated}"
    rest = [a for a in axes if a not in used]
    ids = np.arange(int(np.prod(list(mesh.values())))).reshape([mesh[a] for a in axes])
    order = ids.transpose([axes.index(a) for a in used + rest])  # used axes in spec order, then the rest
    tiles = [mesh[a] if a is not None else 1 for a in spec]
    replicas = int(np.prod([mesh[a] for a in rest])) if rest else 1
    listed = ",".join(map(str, order.reshape(-1)))
    dims = tiles + ([replicas] if replicas > 1 else [])
    # order's axes are (used..., rest...); the array's tile dims interleave Nones, which hold 1 tile
    return "{devices=[" + ",".join(map(str, dims)) + "]" + listed + (" last_tile_dim_replicate" if replicas > 1 else "") + "}"


def shard(module: HloModule, mesh: dict[str, int], params: dict[str, Spec], output: Spec | None = None) -> HloModule:
    """`module` with a sharding on each named parameter (the rest whole on every device) and,
    with `output`, on every result."""
    entry = module.entry_computation
    names = {p.name for p in entry.parameters}
    missing = sorted(set(params) - names)
    if missing:
        raise HloscopeError(f"no parameter {missing[0]!r}: the parameters are {sorted(names)}")
    text = module.to_text()
    for p in entry.parameters:
        assert isinstance(p.shape, ArrayShape)
        spec = params.get(p.name, ())
        annotation = sharding_text(spec, mesh, len(p.shape.dims))
        text = re.sub(rf"(%{re.escape(p.name)} = [^\n]*? parameter\({p.parameter_number}\))",
                      rf"\1, sharding={annotation}", text, count=1)
    if output is not None:
        root = entry.root_instruction
        shapes = root.shape.elements if root.opcode == "tuple" else [root.shape]  # type: ignore[union-attr]
        parts = [sharding_text(output, mesh, len(s.dims)) if isinstance(s, ArrayShape) else "{replicated}"
                 for s in shapes]
        annotation = "{" + ", ".join(parts) + "}" if root.opcode == "tuple" else parts[0]
        text = re.sub(rf"(ROOT %{re.escape(root.name)} = [^\n]*)", rf"\1, sharding={annotation}", text, count=1)
    return parse_hlo(text)


def shards_of(module: HloModule, args: Sequence) -> list[tuple[np.ndarray, ...]]:
    """Each device's arguments: every argument cut to the tile its parameter's sharding gives
    that device (whole where it has none)."""
    entry = module.entry_computation
    params = sorted(entry.parameters, key=lambda p: p.parameter_number or 0)
    devices = max((device_count_of(str(p.attrs["sharding"])) for p in params if "sharding" in p.attrs), default=1)
    out: list[list[np.ndarray]] = [[] for _ in range(devices)]
    for p, value in zip(params, args):
        value = np.asarray(value)
        text = p.attrs.get("sharding")
        sharding = parse_sharding(str(text), value.shape, devices) if text is not None else None
        for d in range(devices):
            if sharding is None or sharding.is_replicated:
                out[d].append(value)
                continue
            start = sharding.offsets(d, value.shape)
            size = sharding.local_dims(value.shape)
            out[d].append(value[tuple(slice(s, s + n) for s, n in zip(start, size))].copy())
    return [tuple(v) for v in out]
