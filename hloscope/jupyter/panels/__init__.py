"""The explorer's tabs, one file each. A panel has `.widget` (what the tab shows),
`update(report)` (called as stages finish; cheap when nothing new) and `activate()`
(called when its tab is selected: where graphs get laid out, lazily)."""

from .graph import GraphPanel
from .ir import IRPanel
from .memory import MemoryPanel
from .mesh import MeshPanel, is_mesh_program
from .overview import OverviewPanel
from .run import RunPanel
from .source import SourcePanel
from .stepper import StepperPanel
from .vs_xla import VsXlaPanel
from .whatif import WhatIfPanel

__all__ = ["GraphPanel", "IRPanel", "MemoryPanel", "MeshPanel", "OverviewPanel", "RunPanel", "SourcePanel", "StepperPanel",
           "VsXlaPanel", "WhatIfPanel", "is_mesh_program"]
