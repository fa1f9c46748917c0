"""Random inputs for a compilation that was given none: seeded, so a run is repeatable.

    parameter_inputs(module, seed=0)      an array per entry parameter
    shape_input("f32[128,256]", rng)      one array of an HLO shape written as text

Floats are standard normal, signed integers in [-8, 8), unsigned in [0, 8), predicates
fair coins: values that exercise every op without overflowing small integer types.
"""

from __future__ import annotations

import numpy as np

from ..errors import HloscopeError
from ..ir import parse_shape
from ..ir.module import HloModule
from ..ir.shape import ArrayShape


class InputError(HloscopeError, ValueError):
    """Inputs that cannot be made or found: a call that cannot be read, an unknown name, a
    parameter random inputs cannot stand in for."""


def random_array(shape: ArrayShape, rng: np.random.Generator) -> np.ndarray:
    """A random array of an ArrayShape: normal floats, small integers, random booleans."""
    dtype = np.dtype(shape.numpy_dtype)
    dims = tuple(shape.dims)
    if shape.dtype == "pred":
        return rng.random(dims) < 0.5
    if np.issubdtype(dtype, np.complexfloating):
        return (rng.standard_normal(dims) + 1j * rng.standard_normal(dims)).astype(dtype)
    if np.issubdtype(dtype, np.integer):
        low = 0 if np.issubdtype(dtype, np.unsignedinteger) else -8
        return rng.integers(low, 8, size=dims).astype(dtype)
    return rng.standard_normal(dims).astype(dtype)


def shape_input(text: str, rng: np.random.Generator) -> np.ndarray:
    """A random array of the HLO shape `text` (e.g. "f32[128,256]")."""
    shape = parse_shape(text.strip())
    if not isinstance(shape, ArrayShape):
        raise InputError(f"{text.strip()!r} is not an array shape: random inputs are made only for arrays")
    return random_array(shape, rng)


def parameter_inputs(module: HloModule, seed: int = 0) -> list[np.ndarray]:
    """Seeded random arrays for every parameter of the module's entry computation."""
    rng = np.random.default_rng(seed)
    out = []
    for p in module.entry_computation.parameters:
        if not isinstance(p.shape, ArrayShape):
            raise InputError(f"parameter {p.name} has shape {p.shape}: random inputs are made only for array "
                             "parameters; give the inputs (%%hlo --args, hloscope report --inputs)")
        out.append(random_array(p.shape, rng))
    return out
