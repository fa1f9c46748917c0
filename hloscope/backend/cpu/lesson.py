"""The plain loops a compile stands for: the same module and memory plan lowered with every
kernel generated (no precompiled library, no row programs), for reading.

On this CPU a softmax runs as a row program and a row sum as a library call: fast, and
compiled in no time, but their LLVM IR is a call. What a learner comes to see is the loop
nest each kernel is in the textbook, so the explorer shows this form by default, next to
the kernel-strategy pass's decision ("runs as a row program because ...") and the code as
it runs:

    loops = hloscope.plain_loops(exe)       # or of exe.report
    loops.llvm_ir                           # every kernel as loops, before LLVM's optimizer
    loops.optimized_llvm_ir                 # ... after it (computed on first use)
    loops.kernels                           # (name, instruction, kind) of each loop kernel
    loops.stands_for("reduce_max.7")        # the loop kernels of one instruction

Nothing here runs: the executable stays what the compile made.
"""

from __future__ import annotations

import dataclasses
import weakref
from dataclasses import dataclass, field

from ...compilation.record import Compilation, Kernel
from ...errors import HloscopeError
from .lowering import LoweringOptions, lower
from .options import CpuOptions

FAST_KINDS = ("row-program", "library-")  # kinds of kernel whose code is a call, not loops


def runs_as_a_call(kind: str) -> bool:
    """Whether a kernel of this kind is a call of precompiled code rather than loops of its own."""
    return kind.startswith(FAST_KINDS)


@dataclass
class LessonCode:
    """The plain-loop form of one compile (see the module docstring)."""

    llvm_ir: str
    kernels: list[Kernel]
    options: CpuOptions
    _optimized: str = field(default="", repr=False)

    @property
    def optimized_llvm_ir(self) -> str:
        if not self._optimized:
            from . import jit
            from .llvm_target import target_options

            self._optimized = str(jit.optimize(self.llvm_ir, target_options(self.options)))
        return self._optimized

    def stands_for(self, instruction: str) -> list[Kernel]:
        return [k for k in self.kernels if k.instruction == instruction]


def lesson_code(c: Compilation) -> LessonCode:
    """The plain loops of CPU compile `c` (its optimized module and memory plan)."""
    if c.target != "cpu":
        raise HloscopeError(f"plain loops are the CPU's lesson form; this compile is for {c.target or 'no target'}")
    module = c.module
    if module is None:
        raise HloscopeError("no optimized module yet: the front stages have not run")
    options = CpuOptions.of(c.options)
    emit = dataclasses.replace(options.emit, library=False)
    lowered = lower(module, LoweringOptions(emit, options.threads, options.parallel_min_elements), c.memory_plan)
    kernels = [Kernel(k.name, k.instruction, k.kind, tuple(b.describe() for b in k.buffers), tuple(k.notes),
                      k.partitions, k.extent, function=_function_name(k)) for k in lowered.kernels]
    return LessonCode(str(lowered.llmod), kernels, options)


_MADE: weakref.WeakKeyDictionary[Compilation, LessonCode] = weakref.WeakKeyDictionary()


def lesson_code_of(c: Compilation) -> LessonCode:
    """lesson_code(c), made once per compile (the explorer asks on every redraw)."""
    code = _MADE.get(c)
    if code is None:
        code = _MADE[c] = lesson_code(c)
    return code


def _function_name(k) -> str:
    return k.function.name if k.function is not None and k.function.name != k.name else ""
