"""A JAX function as a compilation's source: JAX lowers it to StableHLO (with locations, so
each instruction keeps the user's source line), and hloscope takes it from there, with its
own legalization and pipeline.

    hloscope.compile(jax_fn, x, w)      # native code for jax_fn(x, w), compiled by hloscope
    hloscope.explore(jax_fn, x, w)      # its explorer
    %%hlo --jax f(x)                    # the same from a notebook cell

What counts as a JAX function: anything jax.jit made (it has `.lower`), or a function whose
globals or closure hold JAX or a library built on it (flax, equinox, haiku, optax, keras).
`hloscope.jax_source(f, *args)` says it explicitly. JAX is needed only here.
"""

from __future__ import annotations

import functools
import sys
import time
import types
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from ..errors import HloscopeError

if TYPE_CHECKING:
    from ..compilation.record import Compilation

_JAX_FAMILY = ("jax", "jaxlib", "flax", "equinox", "haiku", "optax", "keras")


class JaxLoweringError(HloscopeError):
    """JAX could not lower the function (its own error, named)."""


def _of_jax(value: Any) -> bool:
    if isinstance(value, types.ModuleType):
        return value.__name__.split(".")[0] in _JAX_FAMILY
    for module in (getattr(value, "__module__", None), type(value).__module__):
        if isinstance(module, str) and module.split(".")[0] in _JAX_FAMILY:
            return True
    return False


def is_jax_function(fn: Any, depth: int = 2) -> bool:
    """Whether `fn` is written with JAX: jitted, or its code refers to JAX (or a library on
    it), directly or through the functions it calls (`depth` levels down)."""
    if "jax" not in sys.modules or not callable(fn):
        return False
    if _of_jax(fn):
        return True
    if isinstance(fn, functools.partial):  # partial(block, xp=jnp): the function, or what is bound to it
        bound = [*fn.args, *fn.keywords.values()]
        return is_jax_function(fn.func, depth) or any(_of_jax(v) for v in bound)
    code = getattr(fn, "__code__", None)
    if code is None:
        return False
    globals_ = getattr(fn, "__globals__", {})
    referenced = [globals_[n] for n in code.co_names if n in globals_]
    for cell in getattr(fn, "__closure__", None) or ():
        try:
            referenced.append(cell.cell_contents)
        except ValueError:  # an empty cell
            continue
    if any(_of_jax(v) for v in referenced):
        return True
    return depth > 0 and any(is_jax_function(v, depth - 1) for v in referenced
                             if isinstance(v, types.FunctionType) and v is not fn)


@dataclass
class JaxCall:
    """`function(*args, **kwargs)` lowered by JAX to StableHLO, then legalized by hloscope
    (stage "legalize StableHLO to HLO"; c.legalization keeps the StableHLO and the links)."""

    function: Callable
    args: tuple
    kwargs: dict = field(default_factory=dict)
    kind: str = "jax"
    first_stage: str = "legalize StableHLO to HLO"
    text: str = ""  # the StableHLO JAX printed (once lowered)

    def lower(self) -> tuple[str, list[np.ndarray], float]:
        """(StableHLO text, the flat inputs in parameter order, seconds JAX took)."""
        import jax

        start = time.perf_counter()
        try:
            lowered = jax.jit(self.function, keep_unused=True).lower(*self.args, **self.kwargs)
            text = lowered.as_text(debug_info=True)
        except Exception as e:  # noqa: BLE001 - JAX's errors are many; its message is what matters
            raise JaxLoweringError(f"JAX could not lower {_name(self.function)}: {type(e).__name__}: {e}") from e
        leaves = [np.asarray(a) for a in jax.tree_util.tree_leaves((self.args, self.kwargs))]
        return text, leaves, time.perf_counter() - start

    def load(self, c: Compilation) -> str:
        from . import read

        text, inputs, seconds = self.lower()
        self.text = text
        reading = read(text)
        c.input_module, c.legalization, c.inputs = reading.module, reading, inputs
        return f"jax.jit({_name(self.function)}).lower(...) in {seconds * 1e3:.0f} ms; " + reading.summary()


def jax_source(fn: Callable, *args: Any, **kwargs: Any) -> JaxCall:
    """`fn(*args, **kwargs)` as a source for hloscope.compile / explore, lowered by JAX."""
    return JaxCall(fn, args, kwargs)


def _name(fn: Callable) -> str:
    return getattr(fn, "__name__", None) or type(fn).__name__
