"""Memory planning: liveness, in-place reuse and buffer assignment into one arena (XLA's
BufferAssignment and heap simulator). `plan_memory(module)` returns a `MemoryPlan`;
`memory_at_peak(plan, module)` says what is live at its peak, and why."""

from .at_peak import MemoryAtPeak, memory_at_peak
from .plan import Buffer, MemoryPlan, plan_memory

__all__ = ["Buffer", "MemoryAtPeak", "MemoryPlan", "memory_at_peak", "plan_memory"]
