"""How an array is split over devices: XLA's HloSharding, read from its text and kept as the
one thing the partitioner needs, each device's tile.

    {replicated}                                      every device holds the whole array
    {devices=[4,1]<=[4]}                              dimension 0 in 4 tiles: device d holds tile d
    {devices=[2,1,2]<=[4] last_tile_dim_replicate}    dimension 0 in 2 tiles, each on 2 devices
    {devices=[1,2,2]<=[2,2]T(1,0) last_tile_dim_replicate}   the device order transposed first
    {devices=[2,2]0,2,1,3}                            the device order written out
    {mesh['data'=2,'model'=2], [{'data'}, {}]}        XLA's newer spelling: each dimension's mesh axes

A Sharding maps each device to its tile's coordinates (one per array dimension); devices with
the same coordinates hold the same tile (replicas of it). Everything the partitioner asks is
answered from that map: a device's piece of the array, and which devices hold the other
pieces of a dimension (the group a collective spans).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..errors import NotSupportedError

_TILED = re.compile(r"devices=\[([\d,]+)\](?:<=\[([\d,]+)\](?:T\(([\d,]+)\))?|([\d,]+))")


@dataclass(frozen=True)
class Sharding:
    """`tiles[d]`: the number of tiles along array dimension d; `coords[k]`: device k's tile."""

    tiles: tuple[int, ...]
    coords: tuple[tuple[int, ...], ...]

    @staticmethod
    def replicated(rank: int, devices: int) -> Sharding:
        return Sharding((1,) * rank, tuple((0,) * rank for _ in range(devices)))

    @staticmethod
    def from_devices(tiles: tuple[int, ...], coords: dict[int, tuple[int, ...]]) -> Sharding:
        return Sharding(tiles, tuple(coords[d] for d in sorted(coords)))

    @property
    def devices(self) -> int:
        return len(self.coords)

    @property
    def is_replicated(self) -> bool:
        return all(t == 1 for t in self.tiles)

    def local_dims(self, dims: tuple[int, ...]) -> tuple[int, ...]:
        for d, (size, t) in enumerate(zip(dims, self.tiles)):
            if size % t:
                raise NotSupportedError(f"not supported: dimension {d} of size {size} in {t} uneven tiles")
        return tuple(size // t for size, t in zip(dims, self.tiles))

    def offsets(self, device: int, dims: tuple[int, ...]) -> tuple[int, ...]:
        """Where device `device`'s tile starts in the whole array."""
        local = self.local_dims(dims)
        return tuple(c * n for c, n in zip(self.coords[device], local))

    def groups_along(self, dims: set[int]) -> list[tuple[int, ...]]:
        """Groups of devices that together hold every tile along `dims` once, each group's
        devices in tile order: those that agree on every other dimension (a replicated tile's
        copies are split among separate groups)."""
        by_rest: dict[tuple, list[int]] = {}
        for device, c in enumerate(self.coords):
            rest = tuple(v for i, v in enumerate(c) if i not in dims)
            by_rest.setdefault(rest, []).append(device)
        groups = []
        for members in by_rest.values():
            copies: dict[tuple, list[int]] = {}
            for device in members:
                copies.setdefault(tuple(self.coords[device][i] for i in sorted(dims)), []).append(device)
            count = {len(v) for v in copies.values()}
            if len(count) != 1:
                raise NotSupportedError("not supported: a sharding whose tiles have different numbers of copies")
            for k in range(count.pop()):  # the k-th copy of each tile, in tile order
                groups.append(tuple(copies[key][k] for key in sorted(copies)))
        return sorted(groups)

    def without(self, dims: set[int]) -> Sharding:
        """The same devices with `dims` whole (after an all-gather along them, or a reduce)."""
        return Sharding(tuple(1 if i in dims else t for i, t in enumerate(self.tiles)),
                        tuple(tuple(0 if i in dims else v for i, v in enumerate(c)) for c in self.coords))

    def describe(self) -> str:
        if self.is_replicated:
            return "replicated"
        parts = []
        for d, t in enumerate(self.tiles):
            if t > 1:
                groups = self.groups_along({d})
                parts.append(f"dim {d} in {t} tiles over " + "|".join("{" + ",".join(map(str, g)) + "}"
                                                                       for g in groups))
        return "; ".join(parts)


_NAMED_MESH = re.compile(r"^mesh\[([^\]]*)\]\s*,\s*\[(.*)\]\s*$", re.S)
_AXIS = re.compile(r"'([^']*)'\s*=\s*(\d+)")


def _named_mesh(body: str, rank: int) -> Sharding | None:
    """XLA's newer spelling, each dimension naming the mesh axes it is split over:
    `mesh['data'=2,'model'=2], [{'data'}, {}]`."""
    m = _NAMED_MESH.match(body)
    if m is None:
        return None
    axes = [(name, int(size)) for name, size in _AXIS.findall(m.group(1))]
    per_dim = [[a.strip().strip("'") for a in group.split(",") if a.strip()]
               for group in re.findall(r"\{([^}]*)\}", m.group(2))]
    per_dim += [[] for _ in range(rank - len(per_dim))]
    if len(per_dim) != rank:
        raise NotSupportedError(f"not supported: sharding {{{body}}} for a rank-{rank} array")
    names = [a for a, _ in axes]
    sizes = dict(axes)
    unknown = [a for used in per_dim for a in used if a not in sizes]
    if unknown:
        raise NotSupportedError(f"not supported: sharding {{{body}}}: no mesh axis {unknown[0]!r}")
    tiles = tuple(int(np.prod([sizes[a] for a in used])) if used else 1 for used in per_dim)
    coords: dict[int, tuple[int, ...]] = {}
    for device, position in enumerate(np.ndindex(*[size for _, size in axes])):
        at = dict(zip(names, position))
        tile = []
        for used in per_dim:  # mixed radix over the dimension's axes, the first most significant
            index = 0
            for a in used:
                index = index * sizes[a] + at[a]
            tile.append(index)
        coords[device] = tuple(tile)
    return Sharding.from_devices(tiles, coords)


def parse_sharding(text: str, dims: tuple[int, ...], devices: int) -> Sharding:
    """One array's sharding from XLA's text (see the module docstring)."""
    body = text.strip()
    if body.startswith("{") and body.endswith("}"):
        body = body[1:-1].strip()
    if re.match(r"^mesh\[[^\]]*\]\s*,\s*replicated$", body):  # `{mesh[...], replicated}`
        return Sharding.replicated(len(dims), devices)
    named = _named_mesh(body, len(dims))
    if named is not None:
        return named
    if body in ("replicated", "") or body.startswith("maximal"):
        if body.startswith("maximal"):
            raise NotSupportedError(f"not supported: sharding {{{body}}} (one device holds the array)")
        return Sharding.replicated(len(dims), devices)
    if "last_tile_dims" in body or "manual" in body:
        raise NotSupportedError(f"not supported: sharding {{{body}}} (manual or subgroup tiles)")
    m = _TILED.search(body)
    if m is None:
        raise NotSupportedError(f"not supported: sharding {{{body}}}")
    tiles = [int(v) for v in m.group(1).split(",")]
    count = int(np.prod(tiles))
    if m.group(2):
        order = np.arange(count).reshape([int(v) for v in m.group(2).split(",")])
        if m.group(3):
            order = order.transpose([int(v) for v in m.group(3).split(",")])
        order = order.reshape(-1)
    else:
        order = np.array([int(v) for v in (m.group(4) or "").split(",")])
    assignment = order.reshape(tiles)
    replicate = "last_tile_dim_replicate" in body
    rank = len(dims)
    if len(tiles) != rank + (1 if replicate else 0):
        raise NotSupportedError(f"not supported: sharding {{{body}}} for a rank-{rank} array")
    coords: dict[int, tuple[int, ...]] = {}
    for index in np.ndindex(*assignment.shape):
        coords[int(assignment[index])] = tuple(int(i) for i in index[:rank])
    return Sharding.from_devices(tuple(tiles[:rank]), coords)


def device_count_of(text: str) -> int:
    """How many devices a sharding's text spans (1 for {replicated})."""
    m = _TILED.search(text)
    if m:
        return int(np.prod([int(v) for v in m.group(1).split(",")]))
    mesh = re.search(r"mesh\[([^\]]*)\]", text)
    return int(np.prod([int(size) for _, size in _AXIS.findall(mesh.group(1))])) if mesh else 1
