"""torch_xla's save-tensors file (`XLA_SAVE_TENSORS_FILE=f XLA_SAVE_TENSORS_FMT=hlo`): for each
sync, the Python stack that caused it, then the graph's HLO module between `## BEGIN_GRAPH` and
a `Graph Hash:` line. The file as a whole is not one module; each graph is."""

from __future__ import annotations

import re

_GRAPH = re.compile(r"^## BEGIN_GRAPH\n(.*?)^Graph Hash:", re.MULTILINE | re.DOTALL)


def is_save_tensors_file(text: str) -> bool:
    return "## BEGIN_GRAPH" in text and "Graph Hash:" in text


def save_tensors_graphs(text: str) -> list[str]:
    """The HLO text of each graph the file holds, in the order the syncs happened."""
    return [m.group(1) for m in _GRAPH.finditer(text)]
