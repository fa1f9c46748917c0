"""Counters and timings of the lazy runtime, and a report in torch_xla's style.

    lz.metrics()          a dict: compiles, cache_hits, cache_misses, executions, implicit_syncs,
                          compile_time_s, execute_time_s, cut_time_s, recorded_ops,
                          record_time_s, graph_sizes,
                          transfers_to_device (+ _bytes), transfers_from_device (+ _bytes),
                          sync_lines ({"file:line": count}),
                          cache_miss_causes ({"kind at file:line": count}: why.py),
                          cache_miss_advice (how to avoid each)
    lz.metrics_report()   the same as text (torch_xla's `met.metrics_report()`)
    lz.reset_metrics()    all back to zero (the step records too)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..frontend.source import SourceInfo


@dataclass
class LazyMetrics:
    """The lazy runtime's counters and timings (one instance: `METRICS`; torch_xla calls them metrics)."""

    compiles: int = 0
    cache_hits: int = 0
    executions: int = 0
    implicit_syncs: int = 0
    compile_time_s: float = 0.0
    execute_time_s: float = 0.0
    cut_time_s: float = 0.0  # cutting and hashing the graph (tracing on a miss counts as compile time)
    recorded_ops: int = 0
    record_time_s: float = 0.0  # recording calls on lazy tensors (including their shape inference)
    graph_sizes: list[int] = field(default_factory=list)  # nodes per executed step graph
    transfers_to_device: int = 0
    transfers_to_device_bytes: int = 0
    transfers_from_device: int = 0
    transfers_from_device_bytes: int = 0
    sync_lines: Counter = field(default_factory=Counter)  # "file:line  text" -> implicit syncs there
    miss_causes: Counter = field(default_factory=Counter)  # "a Python number changed at f.py:3" -> compiles
    miss_advice: dict = field(default_factory=dict)  # the same key -> how to avoid it

    def to_device(self, nbytes: int) -> None:
        self.transfers_to_device += 1
        self.transfers_to_device_bytes += nbytes

    def from_device(self, nbytes: int) -> None:
        self.transfers_from_device += 1
        self.transfers_from_device_bytes += nbytes

    def implicit_sync(self, source: SourceInfo | None) -> None:
        self.implicit_syncs += 1
        self.sync_lines[sync_line(source)] += 1

    def missed(self, why: Any) -> None:
        """Count a compile's causes by kind and line (why.py's StepMissReason): compiles per cause."""
        counted = set()  # a cause at one line counts once per compile, however many nodes it changed
        for kind, where, tip in why.kinds:
            key = f"{_CAUSE_WORDS.get(kind, kind)} at {where}"
            if key not in counted:
                counted.add(key)
                self.miss_causes[key] += 1
            self.miss_advice[key] = tip

    def as_dict(self) -> dict[str, Any]:
        return {
            "compiles": self.compiles, "cache_hits": self.cache_hits, "cache_misses": self.compiles,
            "executions": self.executions, "implicit_syncs": self.implicit_syncs,
            "compile_time_s": self.compile_time_s, "execute_time_s": self.execute_time_s,
            "cut_time_s": self.cut_time_s, "recorded_ops": self.recorded_ops,
            "record_time_s": self.record_time_s, "graph_sizes": list(self.graph_sizes),
            "transfers_to_device": self.transfers_to_device,
            "transfers_to_device_bytes": self.transfers_to_device_bytes,
            "transfers_from_device": self.transfers_from_device,
            "transfers_from_device_bytes": self.transfers_from_device_bytes,
            "sync_lines": dict(self.sync_lines),
            "cache_miss_causes": dict(self.miss_causes.most_common()),
            "cache_miss_advice": {k: self.miss_advice.get(k, "") for k, _ in self.miss_causes.most_common()},
        }


_CAUSE_WORDS = {"static": "a Python number or static argument changed", "shape": "an input's shape changed",
                "dtype": "an input's dtype changed", "op": "the graph's operations changed"}


METRICS = LazyMetrics()


def sync_line(source: SourceInfo | None) -> str:
    """`train.py:12  print(loss)`: how a sync's line is shown and counted."""
    if source is None:
        return "<unknown>"
    return f"{source.short_file}:{source.line}" + (f"  {source.text}" if source.text else "")


def reset() -> None:
    global METRICS
    fresh = LazyMetrics()
    METRICS.__dict__.update(fresh.__dict__)


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms"


def report(m: LazyMetrics) -> str:
    """torch_xla-like text: counters first, then metrics with totals and rates."""
    steps = m.executions
    sizes = m.graph_sizes
    lines = [
        "Metric: CompileTime",
        f"  TotalSamples: {m.compiles}",
        f"  Accumulator: {_ms(m.compile_time_s)}",
        f"  Mean: {_ms(m.compile_time_s / m.compiles) if m.compiles else '-'}",
        "Metric: ExecuteTime",
        f"  TotalSamples: {steps}",
        f"  Accumulator: {_ms(m.execute_time_s)}",
        f"  Mean: {_ms(m.execute_time_s / steps) if steps else '-'}",
        "Metric: RecordTime (recording operations on lazy tensors)",
        f"  TotalSamples: {m.recorded_ops}",
        f"  Accumulator: {_ms(m.record_time_s)}",
        "Metric: CutTime (cut and hash the step graph)",
        f"  Accumulator: {_ms(m.cut_time_s)}",
        "Metric: GraphSize (nodes per step)",
        f"  TotalSamples: {len(sizes)}",
        f"  Values: min={min(sizes) if sizes else '-'} max={max(sizes) if sizes else '-'} last={sizes[-1] if sizes else '-'}",
        "Metric: TransferToDeviceBytes",
        f"  TotalSamples: {m.transfers_to_device}",
        f"  Accumulator: {m.transfers_to_device_bytes} B",
        "Metric: TransferFromDeviceBytes",
        f"  TotalSamples: {m.transfers_from_device}",
        f"  Accumulator: {m.transfers_from_device_bytes} B",
        "Counter: CachedCompile (graph-cache hits)",
        f"  Value: {m.cache_hits}",
        "Counter: UncachedCompile (graph-cache misses)",
        f"  Value: {m.compiles}",
        "Counter: ExecuteComputation",
        f"  Value: {steps}",
        "Counter: ImplicitSync (a value read before mark_step)",
        f"  Value: {m.implicit_syncs}",
    ]
    for where, count in m.sync_lines.most_common():
        lines.append(f"    {count:>4} x {where}")
    lines += ["Counter: CompileCauses (why a step compiled again)", f"  Value: {sum(m.miss_causes.values())}"]
    for cause, count in m.miss_causes.most_common():
        lines.append(f"    {count:>4} x {cause}")
        if m.miss_advice.get(cause):
            lines.append(f"           avoid: {m.miss_advice[cause]}")
    return "\n".join(lines)
