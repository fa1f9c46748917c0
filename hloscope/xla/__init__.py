"""The XLA lens: XLA's own compilation in the record every hloscope view reads.

    c = hloscope.xla.load("dump_dir")       # a Compilation: explore(c), c.save_html(...), c.dump(...)
    c = hloscope.xla.capture(f, x, w)       # XLA compiling f(x, w) through JAX, dumped and loaded
    cmp = hloscope.xla.compare(f, x, w)     # the same module through XLA and hloscope, side by side
"""

from .capture import XlaCaptureError, capture
from .compare import Comparison, compare
from .dump_record import load
from .errors import XlaDumpError

__all__ = ["Comparison", "XlaCaptureError", "XlaDumpError", "capture", "compare", "load"]
