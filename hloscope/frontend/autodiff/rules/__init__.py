"""The VJP rules, by kind; importing this package registers them all (registry.py)."""

from . import control, elementwise, linalg, reductions, structure  # noqa: F401
