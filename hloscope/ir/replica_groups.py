"""`replica_groups` and `source_target_pairs`: which devices a collective spans, in the
three spellings XLA's parser accepts (xla/hlo/parser/hlo_parser.cc, CollectiveDeviceList):

    replica_groups={{0,1},{2,3}}                    explicit groups
    replica_groups=[2,2]<=[4]                       iota: 2 groups of 2 from iota(4)
    replica_groups=[2,2]<=[2,2]T(1,0)               iota reshaped to [2,2], transposed
    replica_groups=mesh['a'=2,'b'=2] {'b'}   a named mesh and the axes reduced over

Each keeps the text it was read from for printing, and knows its group size: the number of
devices one group holds, which is what a single-device evaluation needs (size 1 or unknown).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .scanner import Scanner

_MESH = re.compile(r"mesh\[([^\]]*)\]\s*\{([^}]*)\}")
_MESH_AXIS = re.compile(r"'([^']*)'\s*=\s*(\d+)")


@dataclass(frozen=True)
class ReplicaGroups:
    """One `replica_groups` value: `kind` is "list", "iota" or "mesh"."""

    kind: str
    groups: tuple[tuple[int, ...], ...] = ()  # list: the groups as written
    group_shape: tuple[int, ...] = ()  # iota: [number of groups, group size]
    reshape: tuple[int, ...] = ()  # iota: the iota's reshape dims
    transpose: tuple[int, ...] = ()  # iota: the permutation after `T`, if any
    mesh_axes: tuple[tuple[str, int], ...] = ()  # mesh: (axis name, size) in order
    reduced_axes: tuple[str, ...] = ()  # mesh: the axes one group spans

    def group_size(self) -> int | None:
        """Devices per group; None for `{}` (every replica: unknown until run)."""
        if self.kind == "list":
            return len(self.groups[0]) if self.groups else None
        if self.kind == "iota":
            return self.group_shape[-1]
        sizes = dict(self.mesh_axes)
        size = 1
        for axis in self.reduced_axes:
            size *= sizes[axis]
        return size

    def device_groups(self) -> tuple[tuple[int, ...], ...]:
        """The groups spelled out, device ids in each group's order; () for `{}` (one group of
        every device, which only the run knows)."""
        if self.kind == "list":
            return self.groups
        if self.kind == "iota":  # iota(n) reshaped, transposed, read as [groups, size]
            ids = list(range(_product(self.reshape)))
            order = _transposed(ids, self.reshape, self.transpose) if self.transpose else ids
            size = self.group_shape[-1]
            return tuple(tuple(order[i : i + size]) for i in range(0, len(order), size))
        names = [name for name, _ in self.mesh_axes]
        sizes = [size for _, size in self.mesh_axes]
        kept = [i for i, name in enumerate(names) if name not in self.reduced_axes]
        spanned = [names.index(a) for a in self.reduced_axes]
        ids = list(range(_product(tuple(sizes))))
        order = _transposed(ids, tuple(sizes), tuple(kept + spanned))
        size = self.group_size() or 1
        return tuple(tuple(order[i : i + size]) for i in range(0, len(order), size))

    def __str__(self) -> str:
        if self.kind == "list":
            return "{" + ",".join("{" + ",".join(map(str, g)) + "}" for g in self.groups) + "}"
        if self.kind == "iota":
            text = f"[{','.join(map(str, self.group_shape))}]<=[{','.join(map(str, self.reshape))}]"
            return text + (f"T({','.join(map(str, self.transpose))})" if self.transpose else "")
        axes = ",".join(f"'{name}'={size}" for name, size in self.mesh_axes)
        return f"mesh[{axes}] {{{','.join(repr(a) for a in self.reduced_axes)}}}"


@dataclass(frozen=True)
class SourceTargetPairs:
    """`source_target_pairs={{0,1},{1,0}}`: collective-permute's (from, to) device pairs."""

    pairs: tuple[tuple[int, int], ...]

    def __str__(self) -> str:
        return "{" + ",".join(f"{{{a},{b}}}" for a, b in self.pairs) + "}"


def _int_list(s: Scanner, open_: str, close: str) -> tuple[int, ...]:
    s.expect(open_)
    values: list[int] = []
    while not s.accept(close):
        if values:
            s.expect(",", f"',' or '{close}'")
        values.append(s.integer())
    return tuple(values)


def _groups(s: Scanner) -> tuple[tuple[int, ...], ...]:
    s.expect("{")
    groups: list[tuple[int, ...]] = []
    while not s.accept("}"):
        if groups:
            s.expect(",", "',' or '}' between replica groups")
        groups.append(_int_list(s, "{", "}"))
    return tuple(groups)


def parse_replica_groups(s: Scanner) -> ReplicaGroups:
    """Read a replica_groups value at the cursor, checking what XLA's parser checks."""
    s.skip()
    start = s.pos
    if s.peek("{"):
        groups = _groups(s)
        seen: set[int] = set()
        for g in groups:
            for d in g:
                if d < 0 or d in seen:
                    s.fail(f"replica_groups has device {d} {'twice' if d in seen else 'below 0'}", start)
                seen.add(d)
        return ReplicaGroups("list", groups)
    if s.peek("["):
        shape = _int_list(s, "[", "]")
        s.expect("<=", "'<=' in an iota replica_groups such as [2,2]<=[4]")
        reshape = _int_list(s, "[", "]")
        transpose = _int_list(s, "(", ")") if s.accept("T") else ()
        if len(shape) != 2:
            s.fail(f"an iota replica_groups has a 2-dimensional group shape, got {list(shape)}", start)
        count = _product(shape)
        if _product(reshape) != count:
            s.fail(f"iota replica_groups {list(shape)} has {count} devices but its reshape {list(reshape)} "
                   f"has {_product(reshape)}", start)
        if transpose and sorted(transpose) != list(range(len(reshape))):
            s.fail(f"iota replica_groups transpose {list(transpose)} is not a permutation of "
                   f"0..{len(reshape) - 1}", start)
        return ReplicaGroups("iota", group_shape=shape, reshape=reshape, transpose=transpose)
    m = s.match(_MESH)
    if not m:
        s.fail(f"expected replica_groups such as {{{{0,1}}}}, [2,2]<=[4] or mesh[...] {{...}}, "
               f"found {s.describe_here()}", start)
    axes = tuple((name, int(size)) for name, size in _MESH_AXIS.findall(m.group(1)))
    reduced = tuple(a.strip().strip("'") for a in m.group(2).split(",") if a.strip())
    names = {name for name, _ in axes}
    for axis in reduced:
        if axis not in names:
            s.fail(f"replica_groups reduces over axis {axis!r}, which the mesh does not have", start)
    return ReplicaGroups("mesh", mesh_axes=axes, reduced_axes=reduced)


def parse_source_target_pairs(s: Scanner) -> SourceTargetPairs:
    s.skip()
    start = s.pos
    pairs = []
    for g in _groups(s):
        if len(g) != 2:
            s.fail(f"each source_target_pairs entry is {{source,target}}, got {{{','.join(map(str, g))}}}", start)
        pairs.append((g[0], g[1]))
    return SourceTargetPairs(tuple(pairs))


def _product(values: tuple[int, ...]) -> int:
    out = 1
    for v in values:
        out *= v
    return out


def _transposed(ids: list[int], dims: tuple[int, ...], permutation: tuple[int, ...]) -> list[int]:
    """`ids` laid out row-major in `dims`, transposed by `permutation`, read row-major again."""
    import numpy as np

    return [int(v) for v in np.array(ids).reshape(dims).transpose(permutation).reshape(-1)]
