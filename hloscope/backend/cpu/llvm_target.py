"""What the LLVM worker (backend/llvm_worker.py) is told about the machine to compile for,
from a compile's CPU options: one place for the JIT (target.py) and the AOT object (aot.py)."""

from __future__ import annotations

from typing import Any

from . import jit
from .options import CpuOptions


def target_options(opts: CpuOptions) -> jit.TargetOptions:
    return jit.TargetOptions(opts.opt_level, opts.cpu, opts.features)


def llvm_target(opts: CpuOptions, for_jit: bool = True) -> dict[str, Any]:
    """This host (or the cpu/features asked for), JIT code or position-independent code for
    an AOT object. Vectorize and interleave (several accumulators for reductions) from -O2,
    but do not unroll: unrolling doubles code size and compile time for no measurable gain.
    Merge identical functions first: a model's repeated layers lower to the same kernels under
    other names (a GPT-2 step: 106 kernels, 87 distinct; benchmarks/generate.py's branchy
    modules: a quarter distinct), and each is then optimized and compiled once."""
    target = target_options(opts)
    cpu, features = target.resolved()
    machine = {"jit": True} if for_jit else {"pic": True}
    return {"cpu": cpu, "features": features, "opt_level": opts.opt_level, **machine,
            "loop_interleaving": opts.opt_level >= 2, "loop_unrolling": target.unroll,
            "merge_functions": opts.opt_level >= 1}
