"""Read-modify-writes that many GPU threads may do to one element at once.

    add on f32, f64              atomicrmw fadd    (PTX atom.add.f32 / atom.add.f64, sm_60+)
    add on s32, u32, s64, u64    atomicrmw add     (atom.add.u32 / .u64)
    maximum, minimum on ints     atomicrmw max/min, umax/umin
    and, or, xor on ints         atomicrmw and/or/xor

Anything else (float max/min, 8- and 16-bit types, pred, computations that are not one
binary op) has no atomic here: a kernel then runs its updates on one thread, in order.
The order of atomic float adds is not fixed, so sums may differ in their last bits from
run to run (as on XLA's GPU).
"""

from __future__ import annotations

from llvmlite import ir

from ..elemental_reduce import simple_reducer
from ..llvm_types import emitted

_FLOAT = {"add": "fadd"}
_SIGNED = {"add": "add", "maximum": "max", "minimum": "min", "and": "and", "or": "or", "xor": "xor"}
_UNSIGNED = {"add": "add", "maximum": "umax", "minimum": "umin", "and": "and", "or": "or", "xor": "xor"}
_TABLES = {"f32": _FLOAT, "f64": _FLOAT, "s32": _SIGNED, "s64": _SIGNED, "u32": _UNSIGNED, "u64": _UNSIGNED}


def atomic_op(hlo, computation: str, dtype: str) -> str | None:
    """The atomicrmw operation computing `computation` on `dtype` elements, or None."""
    op = simple_reducer(hlo, computation)
    return _TABLES.get(dtype, {}).get(op) if op else None


def atomic_update(b: ir.IRBuilder, op: str, pointer: ir.Value, value: ir.Value) -> None:
    """*pointer = *pointer op value, indivisibly (relaxed ordering: only the sum matters)."""
    emitted(b.atomic_rmw(op, pointer, value, "monotonic"))
