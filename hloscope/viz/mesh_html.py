"""The mesh view: a partitioned program's devices, each array's tile per device, and every
collective with its device groups drawn on the mesh, the bytes it moves and what that costs
on real links (hloscope/cost/collectives.py).

    view = hloscope.spmd.mesh_view(per_device, before=module, log=log)   # in a notebook: shown
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field

from ..cost.collectives import LINKS, CollectiveCost, Interconnect, collective_cost, simulation_link
from ..evaluator.mesh import Device, Rendezvous, device_count
from ..ir.module import HloModule
from ..ir.opcodes import OPCODES
from ..ir.shape import ArrayShape
from ..spmd.sharding import Sharding, parse_sharding

_COLOURS = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7")


@dataclass
class CollectiveRow:
    cost: CollectiveCost
    groups: list[tuple[int, ...]]
    reason: str = ""


@dataclass
class MeshView:
    """What the view shows; `_repr_html_` draws it."""

    module: HloModule
    devices: int
    collectives: list[CollectiveRow]
    arrays: list[tuple[str, str, str, Sharding | None]] = field(default_factory=list)  # name, global, local, sharding
    links: tuple[Interconnect, ...] = ()

    def total_seconds(self, link: Interconnect) -> float:
        return sum(row.cost.seconds(link) for row in self.collectives)

    def _repr_html_(self) -> str:
        return mesh_html(self)


def mesh_view(per_device: HloModule, before: HloModule | None = None, log=None,
              links: tuple[Interconnect, ...] | None = None) -> MeshView:
    """The view of a per-device module (XLA's or hloscope.spmd.partition's); with `before`,
    the pre-partition module, each parameter's tiles; with `log`, each collective's reason."""
    replicas, partitions = device_count(per_device)
    count = replicas * partitions
    meeting = Rendezvous(count)
    device_objects = [Device(d // partitions, d % partitions, replicas, partitions, meeting) for d in range(count)]
    reasons = {e.subject: e.reason for e in (log.entries if log is not None else []) if e.action in
               ("all-reduce", "all-gather")}
    rows = []
    for comp in per_device.computations:
        for inst in comp.instructions:
            row = OPCODES.get(inst.opcode)
            if row is None or row.kind != "collective" or inst.opcode.endswith("-done"):
                continue
            if inst.opcode.startswith("collective-permute"):
                peers, source_of = device_objects[0].permute_peers(inst)
                groups = sorted({(s, t) for t, s in source_of.items()})
            else:
                groups = sorted({device.group(inst) for device in device_objects})
            shapes = [comp[o].shape for o in inst.operands]
            size = max((len(g) for g in groups), default=1)
            rows.append(CollectiveRow(collective_cost(inst, shapes, size, len(groups)), groups,
                                      reasons.get(inst.name, "")))
    arrays = []
    if before is not None:
        entry = before.entry_computation
        for inst in entry.instructions:
            text = inst.attrs.get("sharding")
            if inst.opcode != "parameter" or not isinstance(inst.shape, ArrayShape):
                continue
            sharding = parse_sharding(str(text), inst.shape.dims, count) if text is not None else None
            local = sharding.local_dims(inst.shape.dims) if sharding is not None else inst.shape.dims
            arrays.append((inst.name, inst.shape.short(), f"{inst.shape.dtype}[{','.join(map(str, local))}]",
                           sharding))
    return MeshView(per_device, count, rows, arrays,
                    links if links is not None else (*LINKS.values(), simulation_link()))


def _device_box(device: int, colour: str | None, label: str = "") -> str:
    style = f"background:{colour};color:white" if colour else "background:#eee"
    return (f"<span style='display:inline-block;min-width:28px;margin:1px;padding:2px 4px;border-radius:3px;"
            f"text-align:center;{style}'>{device}{html.escape(label)}</span>")


def _groups_html(groups: list[tuple[int, ...]], devices: int) -> str:
    colour_of = {}
    for k, g in enumerate(groups):
        for d in g:
            colour_of[d] = _COLOURS[k % len(_COLOURS)]
    return "".join(_device_box(d, colour_of.get(d)) for d in range(devices))


def _tiles_html(sharding: Sharding | None, devices: int) -> str:
    if sharding is None or sharding.is_replicated:
        return "".join(_device_box(d, None, " all") for d in range(devices))
    return "".join(_device_box(d, None, " " + ",".join(map(str, sharding.coords[d]))) for d in range(devices))


def mesh_html(view: MeshView) -> str:
    head = (f"<h4>mesh: {view.devices} devices</h4><p>{_groups_html([], view.devices)}</p>")
    arrays = ""
    if view.arrays:
        rows = "".join(f"<tr><td><code>{html.escape(n)}</code></td><td>{html.escape(g)}</td><td>{html.escape(loc)}</td>"
                       f"<td>{html.escape(s.describe() if s else 'replicated')}</td><td>{_tiles_html(s, view.devices)}"
                       "</td></tr>" for n, g, loc, s in view.arrays)
        arrays = ("<h4>arrays: the tile each device holds</h4><table class='hs-table'><thead><tr><th>parameter</th>"
                  "<th>global</th><th>per device</th><th>sharding</th><th>tile per device</th></tr></thead><tbody>"
                  + rows + "</tbody></table>")
    link_heads = "".join(f"<th title='{html.escape(link.describe())}'>{html.escape(link.name.split(' (')[0])}</th>"
                         for link in view.links)
    rows = []
    for row in view.collectives:
        times = "".join(f"<td>{row.cost.seconds(link) * 1e6:,.1f} us</td>" for link in view.links)
        reason = f"<br><span class='hs-note'>{html.escape(row.reason)}</span>" if row.reason else ""
        rows.append(f"<tr><td><code>{html.escape(row.cost.instruction)}</code>{reason}</td>"
                    f"<td>{html.escape(row.cost.opcode)}</td><td>{_groups_html(row.groups, view.devices)}</td>"
                    f"<td>{row.cost.payload:,}</td><td>{row.cost.sent:,}</td>{times}</tr>")
    totals = "".join(f"<td><b>{view.total_seconds(link) * 1e6:,.1f} us</b></td>" for link in view.links)
    table = ("<h4>collectives: groups on the mesh, bytes per device, modelled time (ring)</h4>"
             "<table class='hs-table'><thead><tr><th>instruction</th><th>op</th><th>groups</th><th>bytes held</th>"
             f"<th>bytes sent</th>{link_heads}</tr></thead><tbody>" + "".join(rows)
             + f"<tr><td colspan='5'><b>all collectives</b></td>{totals}</tr></tbody></table>")
    if not view.collectives:
        table = "<p>no collectives: every device runs on its own</p>"
    return f"<div class='hloscope'>{head}{arrays}{table}</div>"
