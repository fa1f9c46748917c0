"""The options of `hloscope.compile(module, backend="cpu", **options)`.

    pipeline               "default" | "simplify" | "none" | a Pipeline | pass names in order
                           ("algsimp,dce,fusion" or a list): the HLO passes
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
    cpu, features          target CPU and features ("" = this host, the default)
    cache                  True: identical module + options compile once per process
    cache_dir              a directory for an on-disk cache of machine code (None: none)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..errors import HloscopeError


@dataclass(frozen=True)
class CompileOptions:
    pipeline: object = "default"
    opt_level: int = 3
    fast_math: bool = False
    reassociate_reductions: bool = True
    dot: str = "blas"
    threads: int = 0
    parallel_min_elements: int = 256 * 1024
    cpu: str = ""
    features: str = ""
    cache: bool = True
    cache_dir: object = None

    @classmethod
    def from_kwargs(cls, **kwargs) -> "CompileOptions":
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(kwargs) - known)
        if unknown:
            raise TypeError(f"unknown compile option(s) {unknown}; known: {sorted(known)}")
        options = cls(**kwargs)
        if options.dot not in ("blas", "loops"):
            raise HloscopeError(f"dot must be 'blas' or 'loops', not {options.dot!r}")
        if not 0 <= options.opt_level <= 3:
            raise HloscopeError(f"opt_level must be 0..3, not {options.opt_level}")
        return options

    def key_fields(self) -> dict:
        """The options that change the generated code (the cache key uses these)."""
        skip = {"cache", "cache_dir"}
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name not in skip}
        pipeline = self.pipeline
        if isinstance(pipeline, (list, tuple)):  # names in order: the same key as their comma string
            pipeline = ",".join(str(name) for name in pipeline)
        out["pipeline"] = pipeline if isinstance(pipeline, str) else repr(pipeline)
        return out

    def as_dict(self) -> dict:
        d = self.key_fields()
        d["cache_dir"] = str(self.cache_dir) if self.cache_dir else None
        return d
