"""Memory planning: liveness, in-place reuse and buffer assignment into one arena (XLA's
BufferAssignment and heap simulator). `plan_memory(module)` returns a `MemoryPlan`."""

from .plan import Buffer, MemoryPlan, plan_memory

__all__ = ["Buffer", "MemoryPlan", "plan_memory"]
