"""The options of `hloscope.compile(module, backend="cpu", **options)` (besides `pipeline`).

    opt_level              0..3 (default 3): LLVM's -O level; vectorizers run from -O2
    fast_math              False: strict IEEE float arithmetic (the transcendental
                           approximations keep exact inf/NaN handling). True adds LLVM's
                           `fast` flags everywhere: faster, but NaN/inf results and
                           the order of float operations are no longer guaranteed
    reassociate_reductions True: reductions may be reordered (`reassoc` on the accumulating
                           op), which is what lets LLVM sum with <8 x float> partial sums;
                           results differ from a sequential sum by rounding only
    dot                    "blas" (sgemm/dgemm from scipy, as XLA calls Eigen) or "loops"
                           (the tiled loop nest); dots BLAS cannot do use loops anyway
    threads                0 = all CPUs this process may use; 1 = single-threaded
    parallel_min_elements  kernels touching at least this many elements are split across
                           threads (default 256K)
    llvm_parts             LLVM optimizes and compiles a large module in this many parts at
                           once, one per core (0 = the cores this process may use, up to 4;
                           1 = the whole module in one piece, which also lets LLVM inline
                           kernels into the entry function)
    library                True: reductions of a parameter and depthwise convolutions call
                           kernels compiled once per process for any size (cpu/library/),
                           and runs of row-wise instructions (softmax, layer norm) are
                           programs of the row interpreter compiled with them (cpu/rows/),
                           as XLA hands such fusions to YNNPACK; False: every kernel is
                           generated (fast_math and reassociate_reductions=False generate
                           the row-wise ones too: the interpreter has neither setting; so
                           does a cpu or features other than this host's)
    cpu, features          target CPU and features ("" = this host, the default)
    cache                  True: identical module + options compile once per process
    cache_dir              a directory for an on-disk cache of machine code (None: none)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from ...errors import HloscopeError
from ..emit_context import EmitOptions


@dataclass(frozen=True)
class CpuOptions:
    opt_level: int = 3
    fast_math: bool = False
    reassociate_reductions: bool = True
    dot: str = "blas"
    threads: int = 0
    parallel_min_elements: int = 256 * 1024
    llvm_parts: int = 0
    library: bool = True
    cpu: str = ""
    features: str = ""
    cache: bool = True
    cache_dir: str | None = None

    @classmethod
    def from_kwargs(cls, **kwargs: Any) -> CpuOptions:
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(kwargs) - known)
        if unknown:
            raise TypeError(f"unknown cpu compile option(s) {unknown}; known: {sorted(known | {'pipeline'})}")
        if kwargs.get("cache_dir") is not None:
            kwargs["cache_dir"] = str(kwargs["cache_dir"])
        options = cls(**kwargs)
        if options.dot not in ("blas", "loops"):
            raise HloscopeError(f"cpu option dot must be 'blas' or 'loops', not {options.dot!r}")
        if options.llvm_parts < 0:
            raise HloscopeError(f"cpu option llvm_parts must be 0 (one per core) or more, not {options.llvm_parts}")
        if not 0 <= options.opt_level <= 3:
            raise HloscopeError(f"cpu option opt_level must be 0..3, not {options.opt_level}")
        return options

    @classmethod
    def of(cls, options: dict[str, Any]) -> CpuOptions:
        """The CPU options inside a compilation's options (which also name the pipeline)."""
        return cls(**{f.name: options[f.name] for f in dataclasses.fields(cls) if f.name in options})

    def code_fields(self) -> dict[str, Any]:
        """The options that change the generated code (the cache key uses these)."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if f.name not in ("cache", "cache_dir", "llvm_parts")}  # parts: the same results, made sooner

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @property
    def emit(self) -> EmitOptions:
        """What the lowering is told: the library only for this host (its code is this host's:
        a program for another CPU is generated whole, so that CPU's vectors show)."""
        return EmitOptions(self.fast_math, self.reassociate_reductions, self.dot,
                           self.library and not (self.cpu or self.features))
