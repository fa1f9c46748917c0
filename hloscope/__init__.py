"""hloscope: an XLA-style compiler in Python, instrumented at every stage, to see how an ML
compiler works.

    parse_hlo(text) -> HloModule      XLA's HLO text syntax, both ways (module.to_text())
    module.verify()                   shape inference and consistency checks
    evaluate(module, *args)           the reference evaluator (ground truth for every stage)
    jit(fn)                           trace numpy-style Python to HLO, cached per signature
    optimize(module)                  XLA's passes, fusion, scheduling and a memory plan, all recorded
    compile(module, backend="cpu")    native code (or PTX with backend="gpu"); exe.report is the record
    explore(f, x, w)                  the notebook explorer widget (`%load_ext hloscope` for %%hlo)

Every compilation leaves one record, a `Compilation` (hloscope.compilation): its stages,
pass records, memory plan, code and run. See docs/architecture.md for how the parts fit.
"""

from typing import Any

from . import lazy  # noqa: F401  lazy tensors and mark_step: hloscope.lazy
from . import numpy  # noqa: F401  the explicit namespace: hloscope.numpy
from . import spmd  # noqa: F401  shardings and the SPMD partitioner: hloscope.spmd.partition
from . import xla  # noqa: F401  XLA's own dump folders: hloscope.xla.load
from .autocluster import autojit, host  # TensorFlow-style auto-clustering (docs/autocluster.md)
from .compilation.caching import COMPILE_CACHE as compile_cache
from .compilation.record import Compilation
from .compilation.source_costs import cost_by_line  # what each source line costs (docs/why.md)
from .compiler import compile, jit, optimize
from .sharded import compile_sharded  # a program for N devices, natively, as N threads
from .errors import (
    ElidedValuesError,
    EvaluationError,
    HloParseError,
    HloscopeError,
    HloVerifierError,
    NotSupportedError,
    UnsupportedError,
)
from .evaluator import evaluate
from .frontend import (NotDifferentiableError, cond, float0, fori_loop, grad, jvp, stop_gradient, switch,
                       value_and_grad, vjp, while_loop)
from .frontend.errors import ShapeError
from .ir import HloModule, parse_shape
from .passes.bisect import bisect
from .passes.pipelines import pipelines
from .stablehlo import parse_hlo  # HLO text, or StableHLO/MHLO legalized on the way
from .stablehlo.from_jax import jax_source
from .version import __version__
from .whatif import sweep, whatif  # what-if experiments (docs/whatif.md)

OptimizeResult = Compilation  # the name `optimize`'s result had before every compile shared one record


def explore(target: Any, *args: Any, **options: Any) -> Any:
    """The explorer widget for `target(*args)`, an HLO module or text, or a compiled
    executable or its record; see hloscope.jupyter.explore."""
    from .jupyter import explore as _explore  # needs ipywidgets, which `import hloscope` does not

    return _explore(target, *args, **options)


def mesh_view(per_device: Any, before: Any = None, log: Any = None, links: Any = None) -> Any:
    """The mesh view of a partitioned module: its devices, each parameter's tiles (given the
    module `before` partitioning) and every collective's groups, bytes and modelled time on
    real links; see hloscope.viz.mesh_html."""
    from .viz.mesh_html import mesh_view as _view

    return _view(per_device, before, log, links)


def llvm_time_by_kernel(x: Any) -> Any:
    """How long LLVM takes for each kernel of a CPU compile (an executable or its record),
    each compiled alone; see hloscope.backend.cpu.llvm_profile."""
    from .backend.cpu.llvm_profile import llvm_time_by_kernel as _times

    return _times(x)


def plain_loops(x: Any) -> Any:
    """The plain loops a CPU compile (an executable or its record) stands for: every kernel
    generated as loops, library calls and row programs included; see
    hloscope.backend.cpu.lesson. The executable itself is unchanged."""
    from .backend.cpu.lesson import lesson_code_of

    return lesson_code_of(getattr(x, "report", x))


def load_ipython_extension(ipython: Any) -> None:
    """`%load_ext hloscope` registers the %%hlo cell magic (hloscope.jupyter.magic)."""
    from .jupyter import load_ipython_extension as _load  # needs IPython

    _load(ipython)


__all__ = [
    "Compilation", "ElidedValuesError", "EvaluationError", "HloModule", "HloParseError", "HloVerifierError", "HloscopeError",
    "NotDifferentiableError", "NotSupportedError", "OptimizeResult", "ShapeError", "UnsupportedError", "bisect",
    "compile", "compile_cache", "cond", "cost_by_line", "evaluate", "explore", "float0", "fori_loop", "grad", "jit", "jvp", "numpy",
    "optimize", "parse_hlo", "parse_shape", "pipelines", "stop_gradient", "switch", "value_and_grad", "vjp",
    "while_loop",
]
__all__ += ["autojit", "host"]  # kept apart from the list above so additions merge cleanly
__all__ += ["llvm_time_by_kernel", "plain_loops"]
__all__ += ["sweep", "whatif"]
__all__ += ["compile_sharded", "jax_source", "mesh_view"]
