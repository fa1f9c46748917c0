"""The recorded scatter-family cases (made by make_cases.py with JAX 0.10.2): each is the
HLO text JAX lowers, the arguments and XLA:CPU's outputs."""

from __future__ import annotations

from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
NAMES = sorted(p.stem for p in HERE.glob("*.hlo"))


def load(name: str) -> tuple[str, list[np.ndarray], list[np.ndarray]]:
    """(HLO text, arguments, JAX's outputs in order)."""
    data = np.load(HERE / f"{name}.npz")
    args = [data[f"arg{k}"] for k in range(sum(1 for f in data.files if f.startswith("arg")))]
    outs = [data[f"out{k}"] for k in range(sum(1 for f in data.files if f.startswith("out")))]
    return (HERE / f"{name}.hlo").read_text(), args, outs
