"""Read-modify-writes that many GPU threads may do to one element at once.

    add on f32, f64              atomicrmw fadd    (PTX atom.add.f32 / atom.add.f64, sm_60+)
    add on s32, u32, s64, u64    atomicrmw add     (atom.add.u32 / .u64)
    maximum, minimum on ints     atomicrmw max/min, umax/umin
    and, or, xor on ints         atomicrmw and/or/xor
    maximum, minimum on f32/f64  a compare-and-swap loop (atom.cas.b32 / .b64), as XLA's
                                 EmitAtomicOperationUsingCAS: PTX has no float max before sm_90

Anything else (8- and 16-bit types, pred, computations that are not one binary op) has no
atomic here: a kernel then runs its updates on one thread, in order. The order of atomic
float adds is not fixed, so sums may differ in their last bits from run to run (as on XLA's
GPU); max and min give the same result in any order.
"""

from __future__ import annotations

from llvmlite import ir

from ..elemental_reduce import apply_reducer, simple_reducer
from ..llvm_types import emitted, type_of

CAS = "cas"
_FLOAT = {"add": "fadd", "maximum": CAS, "minimum": CAS}
_SIGNED = {"add": "add", "maximum": "max", "minimum": "min", "and": "and", "or": "or", "xor": "xor"}
_UNSIGNED = {"add": "add", "maximum": "umax", "minimum": "umin", "and": "and", "or": "or", "xor": "xor"}
_TABLES = {"f32": _FLOAT, "f64": _FLOAT, "s32": _SIGNED, "s64": _SIGNED, "u32": _UNSIGNED, "u64": _UNSIGNED}


def atomic_op(hlo, computation: str, dtype: str) -> str | None:
    """The atomicrmw operation (or CAS) computing `computation` on `dtype` elements, or None."""
    op = simple_reducer(hlo, computation)
    return _TABLES.get(dtype, {}).get(op) if op else None


def atomic_update(em, op: str, computation: str, pointer: ir.Value, value: ir.Value, dtype: str) -> None:
    """*pointer = computation(*pointer, value), indivisibly (relaxed ordering: only the
    combined value matters)."""
    b = em.b
    if op != CAS:
        emitted(b.atomic_rmw(op, pointer, value, "monotonic"))
        return
    bits = ir.IntType(64 if dtype == "f64" else 32)
    start = b.block
    first = b.load(pointer, typ=bits)
    loop, done = b.append_basic_block("cas.loop"), b.append_basic_block("cas.done")
    b.branch(loop)
    b.position_at_end(loop)
    seen = b.phi(bits, name="seen")
    seen.add_incoming(first, start)
    combined = apply_reducer(em, computation, [b.bitcast(seen, type_of(value))], [value], [dtype])[0]
    swapped = b.cmpxchg(pointer, seen, b.bitcast(combined, bits), "monotonic", "monotonic")
    now = b.extract_value(swapped, 0)
    seen.add_incoming(now, b.block)
    b.cbranch(b.extract_value(swapped, 1), done, loop)
    b.position_at_end(done)
