"""Finding NVIDIA's command-line tools: on PATH (the CUDA toolkit), or inside the pip wheels
that ship them, so a user without the toolkit gets them with `pip install hloscope[gpu]`:

    nvidia-cuda-nvcc-cu12    site-packages/nvidia/cuda_nvcc/bin/ptxas
    nvidia-cuda-cuobjdump    site-packages/nvidia/cu13/bin/cuobjdump
    nvidia-cuda-nvdisasm     site-packages/nvidia/cu13/bin/nvdisasm

(the folder under nvidia/ changes between CUDA releases, so any nvidia/*/bin/ is searched).
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path


def wheel_folders() -> list[Path]:
    """Every nvidia/*/bin folder inside the import path's site-packages, in path order."""
    found = []
    for entry in sys.path:
        nvidia = Path(entry or ".") / "nvidia"
        if nvidia.is_dir():
            found += sorted(p for p in nvidia.glob("*/bin") if p.is_dir())
    return found


def find_tool(name: str) -> str | None:
    """The tool's path: PATH first, then the wheels' bin folders; None when neither has it."""
    on_path = shutil.which(name)
    if on_path:
        return on_path
    for folder in wheel_folders():
        candidate = folder / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None
