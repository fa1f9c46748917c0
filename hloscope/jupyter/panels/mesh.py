"""Mesh: a program for several devices, on its mesh. For a per-device module (num_partitions
or replica_count above 1): each collective's groups drawn on the devices, its bytes and its
modelled time on real links. For a module whose parameters carry shardings (before
partitioning): hloscope's own partition of it, with each parameter's tiles and the reason for
every collective. For XLA's own record of a sharded program (hloscope.xla.capture or load):
XLA's partitioned program, and its collectives next to hloscope's partition of the same
module. Shown where it applies."""

from __future__ import annotations

import html
import re

import ipywidgets as w

from ...errors import HloscopeError
from ...evaluator.mesh import device_count
from ...spmd import partition
from ...viz.mesh_html import mesh_view
from .base import Panel, waiting

_MESH_TEXT = re.compile(r"num_partitions=[2-9]|num_partitions=\d\d|replica_count=[2-9]|replica_count=\d\d|"
                        r"sharding=\{devices=")


def is_mesh_program(report) -> bool:
    """Whether `report` compiles a program for several devices, or one annotated with shardings
    (looked up without parsing when the record has no module yet)."""
    module = report.optimized_module if str(report.target).startswith("xla") else report.input_module
    if module is None:
        source_module = getattr(report.source, "module", None)
        text = getattr(report.source, "text", None)
        if source_module is not None:
            module = source_module
        elif isinstance(text, str):
            return bool(_MESH_TEXT.search(text))
        else:
            return False
    replicas, partitions = device_count(module)
    return replicas * partitions > 1 or any("sharding" in i.attrs and "devices=" in str(i.attrs["sharding"])
                                            for _, i in module.all_instructions())


class MeshPanel(Panel):
    title = "mesh"

    def __init__(self, layouts=None):
        super().__init__(layouts)
        self.html = w.HTML(waiting("the module"))
        self.widget = w.VBox([self.html])
        self._shown = None

    def update(self, report) -> None:
        if str(report.target).startswith("xla"):  # XLA's own record: its partitioned program, next to hloscope's
            self._show_xla(report)
            return
        module = report.input_module
        if module is None or module is self._shown:
            return
        self._shown = module
        try:
            replicas, partitions = device_count(module)
            if replicas * partitions > 1:
                self.html.value = mesh_view(module)._repr_html_()
                return
            per_device, log = partition(module)
            notes = "".join(f"<li><b>{html.escape(e.action)}</b> <code>{html.escape(e.subject)}</code>: "
                            f"{html.escape(e.reason)}</li>" for e in log.entries if e.action != "sharding")
            self.html.value = ("<div class='hloscope'><p>hloscope's SPMD partitioner (hloscope.spmd.partition) "
                               f"on this module's shardings:</p><ul>{notes}</ul></div>"
                               + mesh_view(per_device, before=module, log=log)._repr_html_())
        except HloscopeError as e:
            self.html.value = f"<div class='hloscope'><p>no mesh view: {html.escape(str(e))}</p></div>"

    def _show_xla(self, report) -> None:
        module = report.optimized_module
        if module is None or module is self._shown:
            return
        self._shown = module
        from ...xla.partition_compare import compare_partitioning  # the XLA lens sits above the panels' parts

        parts = [mesh_view(module)._repr_html_()]
        try:
            parts.append(compare_partitioning(report)._repr_html_())
        except HloscopeError as e:
            parts.append(f"<div class='hloscope'><p>not compared with hloscope's partitioner: {html.escape(str(e))}"
                         "</p></div>")
        self.html.value = "".join(parts)
