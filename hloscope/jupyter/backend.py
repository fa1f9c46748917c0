"""The two places the explorer touches other parts' APIs: compiling and tracing.

Kept in one small file so that a change in hloscope.compile or hloscope.jit is one edit here.
"""

from __future__ import annotations

import threading

import numpy as np

_warm: threading.Thread | None = None


def warm_up() -> None:
    """Start loading the CPU backend (llvmlite, LLVM's target, the thread pool: ~0.7 s once
    per process) in the background, so the first %%hlo cell does not wait for it."""
    global _warm
    if _warm is None:
        _warm = threading.Thread(target=_load_backend, name="hloscope-backend-warm-up", daemon=True)
        _warm.start()


def _load_backend() -> None:
    try:
        from ..backend.cpu import jit

        jit.initialize()
    except Exception:  # noqa: BLE001 - the real compile will report any problem
        pass


def compile_optimized(module, backend: str = "cpu", opt_level: int = 3):
    """An Executable for a module that already went through the HLO passes (so the backend
    does not run them again: the explorer ran them itself, one record per pass)."""
    from ..compiler import compile as hloscope_compile

    if _warm is not None:
        _warm.join()  # LLVM's one-time initialisation must not run twice at once

    return hloscope_compile(module, backend=backend, pipeline="none", opt_level=opt_level)


def trace_call(jitted, args: tuple, kwargs: dict):
    """(HloModule, trace listing, flat numpy arguments for the module) of `jitted(*args, **kwargs)`.

    The flat arguments are the call's array leaves in the module's parameter order, converted
    to the traced dtypes (a Python float becomes an f32 scalar, as the trace saw it)."""
    module = jitted.lower(*args, **kwargs)
    listing = jitted.trace(*args, **kwargs)
    _, leaves, avals = jitted._signature(args, kwargs)  # the one private call: the flattening rule
    flat = [np.asarray(x, dtype=a.dtype) for x, a in zip(leaves, avals)]
    return module, listing, flat


def as_jitted(fn):
    """`fn` wrapped by hloscope.jit (unless it already is)."""
    from ..frontend.jit import Jitted, jit

    return fn if isinstance(fn, Jitted) else jit(fn)


def plain_function(fn):
    """The Python function behind a jitted one (what numpy runs for the comparison)."""
    return getattr(fn, "__wrapped__", fn)
