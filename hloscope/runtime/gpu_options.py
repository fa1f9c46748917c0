"""The options of `hloscope.compile(module, backend="gpu", **options)`.

    pipeline               "default" (for this backend: "gpu", which also fuses producers into
                           column reductions) | "simplify" | "none" | a Pipeline: the HLO passes
    sm                     "sm_80" (default): the GPU architecture the PTX targets, and the
                           one ptxas assembles for; PTX for sm_80 also runs on later GPUs
    opt_level              0..3 (default 3): LLVM's -O level before PTX is emitted
    fast_math              False: strict IEEE float arithmetic; True adds LLVM's `fast` flags
    reassociate_reductions True: reductions may be reordered (every GPU reduction is, across
                           threads; this flag only changes each thread's own loop)
    block_size             threads per block of the loop (elementwise) kernels (default 256;
                           fewer whole warps when the result has fewer elements)
    ptxas                  True: run `ptxas -v` when it is on PATH, for its verdict and each
                           kernel's registers, shared memory and spills (False: skip it)
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..errors import HloscopeError


@dataclass(frozen=True)
class GpuCompileOptions:
    pipeline: object = "default"
    sm: str = "sm_80"
    opt_level: int = 3
    fast_math: bool = False
    reassociate_reductions: bool = True
    block_size: int = 256
    ptxas: bool = True

    @classmethod
    def from_kwargs(cls, **kwargs) -> "GpuCompileOptions":
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(kwargs) - known)
        if unknown:
            raise TypeError(f"unknown gpu compile option(s) {unknown}; known: {sorted(known)}")
        options = cls(**kwargs)
        from ..backend.gpu.codegen import check_sm

        check_sm(options.sm)
        if not 0 <= options.opt_level <= 3:
            raise HloscopeError(f"opt_level must be 0..3, not {options.opt_level}")
        if options.block_size not in (32, 64, 128, 256, 512, 1024):
            raise HloscopeError(f"block_size must be a power of two from 32 to 1024, not {options.block_size}")
        return options

    def as_dict(self) -> dict:
        out = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        out["pipeline"] = self.pipeline if isinstance(self.pipeline, str) else repr(self.pipeline)
        return out
