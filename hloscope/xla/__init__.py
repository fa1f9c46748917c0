"""The XLA lens: XLA's own per-pass dump folder read into hloscope's record.

    c = hloscope.xla.load("dump_dir")       # a Compilation: explore(c), c.save_html(...), c.dump(...)
"""

from .dump_record import load
from .errors import XlaDumpError

__all__ = ["load", "XlaDumpError"]
