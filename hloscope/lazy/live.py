"""What a step cuts: the lazy tensors still alive, in creation order, and the grad mode.

Like torch_xla, `mark_step` runs the pending graph of every live tensor (anything the
program still holds); tensors nobody holds are gone from here at once (weak references),
and so are the parts of the graph only they needed.
"""

from __future__ import annotations

import contextlib
import itertools
import threading
import weakref
from typing import TYPE_CHECKING, Iterator

if TYPE_CHECKING:
    from .tensor import LazyTensor

_LIVE: "weakref.WeakValueDictionary[int, LazyTensor]" = weakref.WeakValueDictionary()
_order = itertools.count()
_mode = threading.local()


def register(t: "LazyTensor") -> int:
    """Add `t` to the live tensors; its place in the creation order."""
    n = next(_order)
    _LIVE[n] = t
    return n


def live_tensors() -> list["LazyTensor"]:
    """The live tensors, oldest first (a stable order: the same program lists them the same way)."""
    return [t for _, t in sorted(_LIVE.items())]


def grad_enabled() -> bool:
    return getattr(_mode, "enabled", True)


@contextlib.contextmanager
def no_grad() -> Iterator[None]:
    """`with lz.no_grad():` operations inside are not differentiated (parameter updates)."""
    saved = grad_enabled()
    _mode.enabled = False
    try:
        yield
    finally:
        _mode.enabled = saved
