"""The recorded JAX top-k cases (tests/topk_cases, made by its record.py) as (hlo text, x, values, indices)."""

from __future__ import annotations

from pathlib import Path

import ml_dtypes
import numpy as np

CASES_DIR = Path(__file__).parent / "topk_cases"


def _array(a: np.ndarray) -> np.ndarray:
    """npz keeps bf16 as raw 2-byte records: view them as bf16 again."""
    return a.view(ml_dtypes.bfloat16) if a.dtype.kind == "V" else a


def case_names(compiled: bool = False) -> list[str]:
    """Every recorded case (`compiled`: those with XLA's optimized custom-call form)."""
    suffix = ".compiled.hlo" if compiled else ".hlo"
    names = [p.name[: -len(suffix)] for p in CASES_DIR.glob(f"*{suffix}")]
    return sorted(n for n in names if "." not in n and n != "sampling_step" and (CASES_DIR / f"{n}.npz").exists())


def load_case(name: str, compiled: bool = False) -> tuple[str, np.ndarray, np.ndarray, np.ndarray]:
    text = (CASES_DIR / f"{name}{'.compiled' if compiled else ''}.hlo").read_text()
    data = np.load(CASES_DIR / f"{name}.npz")
    return text, _array(data["x"]), _array(data["values"]), data["indices"]


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """Equal element for element, NaN payloads and -0 included."""
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()
