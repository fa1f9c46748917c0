"""The error a dump folder that cannot be read raises: it names the folder or the file."""

from __future__ import annotations

from ..errors import HloscopeError


class XlaDumpError(HloscopeError, ValueError):
    """A folder that is not an XLA dump, a module missing from it, or a file that does not parse."""
