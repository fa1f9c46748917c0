"""How long LLVM takes for each kernel: where a compile's llvm-opt and codegen time goes.

    times = hloscope.llvm_time_by_kernel(exe)      # a CPU executable or its record
    times            # a table, slowest kernel first (text in a terminal, HTML in a notebook)

The compile itself optimizes a whole module (or a few parts of it on several cores:
llvm_split.py), so LLVM's own clock has no per-kernel reading. This measures instead: each
kernel goes through the same -O pipeline and code generator alone (its module holds it, the
helpers it inlines and declarations of the rest), on the same LLVM workers and target as the
compile. The kernels' sum is more than the module's stage times, by the fixed cost of each run
(a few ms): the table says both, so a reader sees which kernel is worth making smaller.
"""

from __future__ import annotations

import dataclasses
import html
import time
from dataclasses import dataclass
from typing import Any

from ...compilation.record import Compilation
from ...errors import HloscopeError
from .fast.llvm_split import kernel_modules
from ..cpus import usable_cpus
from ..llvm_worker import LlvmWorker, llvm_workers, run_on, warm_up_workers
from .llvm_target import llvm_target
from .options import CpuOptions


@dataclass(frozen=True)
class KernelLlvmTime:
    kernel: str
    kind: str
    ir_lines: int  # the kernel's own function, before LLVM
    optimized_lines: int  # its module after the -O pipeline (inlined helpers, vector code)
    optimize_seconds: float
    codegen_seconds: float
    object_bytes: int

    @property
    def seconds(self) -> float:
        return self.optimize_seconds + self.codegen_seconds


@dataclass(frozen=True)
class LlvmTimes:
    rows: list[KernelLlvmTime]  # slowest first
    stage_seconds: float  # what the compile's llvm-opt + codegen stages took for the whole module
    opt_level: int

    @property
    def total_seconds(self) -> float:
        return sum(r.seconds for r in self.rows)

    def __str__(self) -> str:
        head = f"{'kernel':<40} {'kind':<10} {'IR lines':>8} {'opt lines':>9} {'opt ms':>7} {'codegen ms':>10} {'object B':>9}"
        lines = [f"LLVM time by kernel (-O{self.opt_level}, each kernel compiled alone)", head, "-" * len(head)]
        for r in self.rows:
            lines.append(f"{r.kernel[:40]:<40} {r.kind[:10]:<10} {r.ir_lines:8d} {r.optimized_lines:9d} "
                         f"{r.optimize_seconds * 1e3:7.1f} {r.codegen_seconds * 1e3:10.1f} {r.object_bytes:9,d}")
        lines.append(f"sum over kernels {self.total_seconds * 1e3:.1f} ms; the compile's llvm-opt + codegen "
                     f"for the whole module {self.stage_seconds * 1e3:.1f} ms")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        total = self.total_seconds or 1.0
        body = "".join(
            f"<tr><td><code>{html.escape(r.kernel)}</code></td><td>{html.escape(r.kind)}</td>"
            f"<td>{r.ir_lines}</td><td>{r.optimized_lines}</td><td>{r.optimize_seconds * 1e3:.1f}</td>"
            f"<td>{r.codegen_seconds * 1e3:.1f}</td><td>{r.object_bytes:,}</td>"
            f"<td><div style='background:#8250df;height:10px;width:{100 * r.seconds / total:.0f}px'></div></td></tr>"
            for r in self.rows)
        head = "".join(f"<th>{h}</th>" for h in ("kernel", "kind", "IR lines", "optimized lines", "opt ms",
                                                "codegen ms", "object bytes", "share"))
        return (f"<div class='hloscope'><h4>LLVM time by kernel (-O{self.opt_level}, each kernel compiled alone)</h4>"
                f"<table class='hs-table'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
                f"<p>sum over kernels {self.total_seconds * 1e3:.1f} ms; the compile's llvm-opt + codegen for the "
                f"whole module {self.stage_seconds * 1e3:.1f} ms (each run alone pays LLVM's fixed cost again)</p></div>")


def llvm_time_by_kernel(x: Any) -> LlvmTimes:
    """Each kernel of a CPU compile through LLVM alone, timed (see the module docstring)."""
    c = x if isinstance(x, Compilation) else getattr(x, "report", None)
    if not isinstance(c, Compilation):
        raise HloscopeError(f"llvm_time_by_kernel takes a compiled executable or its record, not {type(x).__name__}")
    if c.backend != "cpu":
        raise HloscopeError(f"llvm_time_by_kernel times the CPU's LLVM kernels; this compile is for {c.backend!r}")
    if not c.llvm_ir or not c.kernels:
        raise HloscopeError("this compile has no LLVM IR to time (it stopped before the lower stage, "
                            "or came from the disk cache, which keeps machine code only)")
    ir_text = c.llvm_ir
    opts = CpuOptions.of(c.options)
    target = llvm_target(opts)
    modules = kernel_modules(ir_text)
    # (function, kind): each kernel (a repeated computation calls its first's code; the
    # instructions of a row program share its kernel's), and the exact sin/cos/tan loop a
    # kernel keeps in a function of its own (huge_trig_loop.py)
    functions = list(dict.fromkeys((k.llvm_function, k.kind) for k in c.kernels if k.llvm_function in modules))
    functions += [(name, "exact trig") for name in modules
                  if any(name.startswith(f"{k}.exact") for k, _ in functions)]
    with llvm_workers(max(1, min(usable_cpus(), len(functions)))) as lent:
        workers = list(dict.fromkeys(lent))  # each once, where fewer were free
        # Functions go to the workers in turns; each worker runs its share one after another.
        shares = [functions[i::len(workers)] for i in range(len(workers))]
        calls = [lambda w=w, share=share: [_time_one(w, name, *modules[name], target) for name, _ in share]
                 for w, share in zip(workers, shares)]
        warm_up_workers(workers, target)  # a fresh child's first run is slower: not the kernel's cost
        answers = run_on(workers, calls)
    measured = {row.kernel: row for answer in answers for row in answer}
    rows = [dataclasses.replace(measured[name], kind=kind) for name, kind in functions]
    rows.sort(key=lambda r: -r.seconds)
    stage = sum(s.seconds for s in c.stages if s.name in ("llvm-opt", "codegen"))
    return LlvmTimes(rows, stage, opts.opt_level)


def _time_one(worker: LlvmWorker, name: str, text: str, own_lines: int, target: dict[str, Any]) -> KernelLlvmTime:
    start = time.perf_counter()
    handle, optimized = worker.optimize(text, target)
    optimized_at = time.perf_counter()
    obj = worker.object(handle)
    done = time.perf_counter()
    return KernelLlvmTime(name, "", own_lines, optimized.count("\n"), optimized_at - start, done - optimized_at,
                          len(obj))
