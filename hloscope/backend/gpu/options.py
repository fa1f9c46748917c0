"""The options of `hloscope.compile(module, backend="gpu", **options)` (besides `pipeline`,
whose "default" is the "gpu" pipeline here: it also fuses producers into column reductions).

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
from typing import Any

from ...errors import HloscopeError
from ..emit_context import EmitOptions
from .codegen import check_sm


@dataclass(frozen=True)
class GpuOptions:
    sm: str = "sm_80"
    opt_level: int = 3
    fast_math: bool = False
    reassociate_reductions: bool = True
    block_size: int = 256
    ptxas: bool = True

    @classmethod
    def from_kwargs(cls, **kwargs: Any) -> GpuOptions:
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(kwargs) - known)
        if unknown:
            raise TypeError(f"unknown gpu compile option(s) {unknown}; known: {sorted(known | {'pipeline'})}")
        options = cls(**kwargs)
        check_sm(options.sm)
        if not 0 <= options.opt_level <= 3:
            raise HloscopeError(f"gpu option opt_level must be 0..3, not {options.opt_level}")
        if options.block_size not in (32, 64, 128, 256, 512, 1024):
            raise HloscopeError(f"gpu option block_size must be a power of two from 32 to 1024, not "
                                f"{options.block_size}")
        return options

    @classmethod
    def of(cls, options: dict[str, Any]) -> GpuOptions:
        """The GPU options inside a compilation's options (which also name the pipeline)."""
        return cls(**{f.name: options[f.name] for f in dataclasses.fields(cls) if f.name in options})

    def as_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @property
    def emit(self) -> EmitOptions:
        return EmitOptions(self.fast_math, self.reassociate_reductions, "loops")
