"""Element types in LLVM: how each HLO element type is stored in memory and held in registers.

Memory ("storage") types match numpy's layout byte for byte, so a numpy array can be handed
to native code as is: pred is one byte, bf16 is 16 raw bits. Register ("value") types are
what arithmetic runs on: pred is `i1`, and 16-bit floats are computed in f32 and rounded
back to 16 bits after every operation (what the evaluator does too), because x86 has no
16-bit float arithmetic and LLVM would otherwise call a runtime library.
"""

from __future__ import annotations

from typing import Callable, Literal, cast

from llvmlite import ir

from ..ir.dtypes import ElementType, element_type

I1, I8, I16, I32, I64 = (ir.IntType(n) for n in (1, 8, 16, 32, 64))
F32, F64, F16 = ir.FloatType(), ir.DoubleType(), ir.HalfType()
PTR = ir.PointerType()
VOID = ir.VoidType()


# Where llvmlite's source (it has no stubs) misleads a type checker:
def emitted(instruction: object) -> ir.Instruction:
    """The instruction an IRBuilder arithmetic or cast method (add, zext, bitcast, ...) inserted
    and returned. llvmlite wraps those methods in decorators whose result a type checker cannot
    see: it reads the undecorated body, which returns None."""
    return cast(ir.Instruction, instruction)


def type_of(value: ir.Value) -> ir.Type:
    """The LLVM type of `value`. Every llvmlite value has one, but ir.Value does not declare
    it (each subclass sets it in __init__)."""
    return cast(ir.Constant | ir.NamedValue, value).type  # the classes that set it


def no_signed_wrap(b: ir.IRBuilder, op: Literal["add", "mul"], x: ir.Value, y: ir.Value, name: str = "") -> ir.Instruction:
    """x + y or x * y flagged `nsw` (index and loop-counter arithmetic never reaches 2**63)."""
    # Typed loosely: llvmlite's decorator takes `flags`, but a type checker sees only the
    # undecorated signature, which has none.
    method = cast(Callable[..., object], b.add if op == "add" else b.mul)
    return emitted(method(x, y, name=name, flags=["nsw"]))


def declared(module: ir.Module, name: str, fnty: ir.FunctionType) -> ir.Function:
    """The module's function `name`: the one already there, else a new declaration of `fnty`."""
    found = module.globals.get(name)
    return found if isinstance(found, ir.Function) else ir.Function(module, fnty, name)


def left_unoptimized(fn: ir.Function) -> ir.Function:
    """Mark `fn` for LLVM to leave unoptimized (`optnone`: no -O3 passes, the fast code
    generator), where optimizing gains nothing at run time yet costs 1-8 ms per function:
    functions that only hand pointers on to compiled code (other kernels, the library, BLAS,
    the thread pool; a full sum's four: 13 -> 5.5 ms of LLVM), and kernels of a few elements
    (cpu/lowering.py). optnone needs noinline."""
    fn.attributes.add("noinline")
    fn.attributes.add("optnone")
    return fn


def internal_global(module: ir.Module, ty: ir.Type, name: str, initializer: ir.Constant, align: int) -> ir.GlobalVariable:
    """An internal global variable of `ty` holding `initializer`, aligned to `align` bytes."""
    g = ir.GlobalVariable(module, ty, name=name)
    g.linkage = "internal"
    # llvmlite's __init__ sets both to None, which a type checker takes for their types.
    g.initializer = initializer  # pyright: ignore[reportAttributeAccessIssue]
    g.align = align  # pyright: ignore[reportAttributeAccessIssue]
    return g


def int_width(t: ir.Type) -> int:
    """The bit width of `t`, an integer type."""
    assert isinstance(t, ir.IntType), f"{t} is not an integer type"
    return t.width


def storage_type(dtype: str) -> ir.Type:
    """The LLVM type of one element in memory (same size and bits as numpy's)."""
    t = element_type(dtype)
    if t.kind == "pred":
        return I8
    if t.kind == "float":
        return {"f16": F16, "bf16": I16, "f32": F32, "f64": F64}[t.name]
    return ir.IntType(t.bits)


def value_type(dtype: str) -> ir.Type:
    """The LLVM type arithmetic on `dtype` runs on (i1 for pred, f32 for 16-bit floats)."""
    t = element_type(dtype)
    if t.kind == "pred":
        return I1
    if t.kind == "float":
        return F64 if t.bits == 64 else F32
    return ir.IntType(t.bits)


def is_float(dtype: str) -> bool:
    return element_type(dtype).is_float


def is_signed(dtype: str) -> bool:
    return element_type(dtype).kind == "signed"


def info(dtype: str) -> ElementType:
    return element_type(dtype)


def constant(dtype: str, value) -> ir.Constant:
    """A register constant of `dtype` (16-bit floats as their exact f32 value)."""
    t = element_type(dtype)
    ty = value_type(dtype)
    if t.kind == "pred":
        return ir.Constant(ty, int(bool(value)))
    if t.kind == "float":
        return ir.Constant(ty, float(value))
    bits = t.bits
    return ir.Constant(ty, int(value) & ((1 << bits) - 1))


def load(b: ir.IRBuilder, ptr: ir.Value, dtype: str, align: int | None = None) -> ir.Value:
    """Load one element and widen it to its register type."""
    raw = b.load(ptr, typ=storage_type(dtype), align=align or info(dtype).byte_size)
    return from_storage(b, raw, dtype)


def store(b: ir.IRBuilder, value: ir.Value, ptr: ir.Value, dtype: str, align: int | None = None):
    """Narrow a register value to its storage type and store it."""
    b.store(to_storage(b, value, dtype), ptr, align=align or info(dtype).byte_size)


def from_storage(b: ir.IRBuilder, raw: ir.Value, dtype: str) -> ir.Value:
    if dtype == "pred":
        return b.icmp_unsigned("!=", raw, I8(0))
    if dtype == "f16":
        return emitted(b.fpext(raw, F32))
    if dtype == "bf16":
        return emitted(b.bitcast(b.shl(b.zext(raw, I32), I32(16)), F32))
    return raw


def to_storage(b: ir.IRBuilder, value: ir.Value, dtype: str) -> ir.Value:
    if dtype == "pred":
        return emitted(b.zext(value, I8))
    if dtype == "f16":
        return emitted(b.fptrunc(value, F16))
    if dtype == "bf16":
        return bf16_bits(b, value)
    return value


def bf16_bits(b: ir.IRBuilder, x: ir.Value) -> ir.Value:
    """The 16 bits of f32 `x` rounded to bf16 (nearest even; NaN stays a quiet NaN).

    Done with integer arithmetic rather than `fptrunc ... to bfloat`, which x86 lowers to a
    runtime-library call that a JIT may not find.
    """
    bits = b.bitcast(x, I32)
    lsb = b.and_(b.lshr(bits, I32(16)), I32(1))
    rounded = b.lshr(b.add(bits, b.add(lsb, I32(0x7FFF))), I32(16))
    quiet_nan = b.or_(b.lshr(bits, I32(16)), I32(0x0040))
    is_nan = b.fcmp_unordered("uno", x, x)
    return emitted(b.trunc(b.select(is_nan, quiet_nan, rounded), I16))


def round_to(b: ir.IRBuilder, value: ir.Value, dtype: str) -> ir.Value:
    """Round an f32 register value to `dtype`'s precision (a no-op except for f16 and bf16)."""
    if dtype in ("f16", "bf16"):
        return from_storage(b, to_storage(b, value, dtype), dtype)
    return value
