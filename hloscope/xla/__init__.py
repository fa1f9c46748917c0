"""The XLA lens: XLA's own compilation in the record every hloscope view reads.

    c = hloscope.xla.load("dump_dir")       # a Compilation: explore(c), c.save_html(...), c.dump(...)
    c = hloscope.xla.capture(f, x, w)       # XLA compiling f(x, w) through JAX, dumped and loaded
    cmp = hloscope.xla.compare(f, x, w)     # the same module through XLA and hloscope, side by side
    hloscope.xla.compare_partitioning(c)    # a sharded program: XLA's SPMD partitioner next to hloscope's

What `--xla_dump_to=DIR --xla_dump_hlo_pass_re=.*` writes (XLA:CPU and XLA:GPU), as the same
record a hloscope compile makes: the module before optimizations (c.input_module), one step per
numbered snapshot in order (c.records: pipeline, name, changed), the optimized module, XLA's
buffer assignment and live ranges as a MemoryPlan (c.memory_plan: an XlaMemoryPlan whose
peak_bytes are XLA's outputs and temporaries, total_bytes every allocation; its live_peak_bytes
what XLA's live-range dump reports at its peak), the memory-usage report's total
(c.xla_memory_total_bytes), the kernels' LLVM IR and object files' size (CPU), the PTX and the
thunk sequence (GPU: c.ptx, c.program), one Kernel per fusion or launch. A folder with several
modules: `load(DIR, module=3)` or `module="jit_f"` (default: the one with the most steps). A
file that is cut short or not XLA's raises XlaDumpError naming it.
"""

from .capture import XlaCaptureError, capture
from .compare import Comparison, compare
from .dump_record import load
from .errors import XlaDumpError
from .memory_plan import XlaMemoryPlan
from .partition_compare import PartitionComparison, compare_partitioning

__all__ = ["Comparison", "PartitionComparison", "XlaCaptureError", "XlaDumpError", "XlaMemoryPlan", "capture", "compare",
           "compare_partitioning", "load"]
