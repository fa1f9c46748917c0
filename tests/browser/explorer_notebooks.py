"""Which notebooks show an hloscope explorer: those with a code cell that uses the `%%hlo`
cell magic, the `%hlo` line magic or `explore(...)`. Found by reading the cells, so a new
notebook is tested in the browser without anyone adding it to a list."""

from __future__ import annotations

import json
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"

# `%hlo_options` prints text and shows no explorer, hence the space after `%hlo`.
EXPLORER_CODE = re.compile(r"^\s*%%hlo\b|^\s*%hlo\s|\bexplore\(", re.MULTILINE)


def cell_sources(path: Path) -> list[tuple[str, str]]:
    """(cell type, source) of every cell of the notebook at `path`, in order."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [(c["cell_type"], "".join(c["source"]) if isinstance(c["source"], list) else c["source"]) for c in cells]


def shows_an_explorer(path: Path) -> bool:
    """Whether a code cell of the notebook at `path` opens an explorer."""
    return any(kind == "code" and EXPLORER_CODE.search(source) for kind, source in cell_sources(path))


def explorer_notebooks(folder: Path = NOTEBOOKS) -> list[Path]:
    """The notebooks in `folder` that show an explorer, by name."""
    return [path for path in sorted(folder.glob("*.ipynb")) if shows_an_explorer(path)]


def exercise_checks(path: Path) -> list[int]:
    """The indices of the cells tagged `exercise-check` (the exercises' check cells): as
    committed, each prints `<exercise>: not answered yet` for every exercise it checks."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [i for i, c in enumerate(cells)
            if c["cell_type"] == "code" and "exercise-check" in c.get("metadata", {}).get("tags", [])]
