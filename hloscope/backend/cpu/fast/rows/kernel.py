"""A row program's kernel: a small function handing the interpreter its program and buffers.

    void @<name>(ptr buffers..., i64 begin, i64 end):     the shape of every CPU kernel
        pointers = [buffers..., @<name>.constants]
        hloscope_row_program_<t>(@<name>.program, pointers, begin, end)

so the entry and the thread pool run it like any kernel, over rows [begin, end). Its LLVM
function is a few stores and a call: the loops are the interpreter's, compiled once per
process (library/rows.py). Each instruction of the program keeps a record of its own in
the report (kind "row-program", its ops in the listing), all naming this function.
"""

from __future__ import annotations

from llvmlite import ir

from ....buffers import ArrayStorage
from ....kernel_spec import ModuleContext
from ....llvm_types import I64, PTR, VOID, declared, internal_global, left_unoptimized
from ....loop_function import LoopFunction, LoopKernel
from ..library.source import TYPES
from .groups import ProgramPlan
from .ops import interpreter_name
from .program import RowProgram

KIND = "row-program"
NOTE = ("runs in row program {name} with {members}, {block} rows at a time, in hloscope's row interpreter "
        "(compiled once per process, as XLA hands such programs to YNNPACK): its ops {ops}")


def emit_program_kernel(mc: ModuleContext, name: str, plan: ProgramPlan, program: RowProgram,
                        buffers: list[ArrayStorage], writes: set[ArrayStorage]) -> LoopKernel:
    """The program's kernel (see the module docstring), its listing in its notes."""
    kf = LoopFunction(mc.llmod, name, buffers, writes)
    b = kf.builder
    table = ir.IRBuilder(kf.slots).alloca(PTR, size=I64(len(kf.buffers) + 1), name="pointers")
    for k, pointer in enumerate([*map(kf.pointer, kf.buffers), _constants(mc, name, program)]):
        b.store(pointer, b.gep(table, [I64(k)], inbounds=True, source_etype=PTR))
    interpreter = declared(mc.llmod, interpreter_name(program.dtype), ir.FunctionType(VOID, [PTR, PTR, I64, I64]))
    b.call(interpreter, [_words(mc, name, program), table, kf.begin, kf.end])
    kf.finish()
    left_unoptimized(kf.fn)
    kernel = LoopKernel(kf.fn.name, plan.members[0].inst.name, KIND, kf.buffers, extent=program.rows,
                        work=program.rows * program.width, function=kf.fn)
    kernel.notes.append(program.listing())
    return kernel


def member_records(kernel: LoopKernel, plan: ProgramPlan, program: RowProgram) -> list[LoopKernel]:
    """A record per instruction of the program for the report, each naming its ops."""
    names = ", ".join(m.inst.name for m in plan.members)
    records = []
    for number, m in enumerate(plan.members):
        lines = [op.text(program.slots) for op in program.ops if op.member == number]
        record = LoopKernel(m.kernel_name, m.inst.name, KIND, [*m.inputs, *m.outputs], extent=program.rows,
                            work=program.rows * program.width, partitions=kernel.partitions, function=kernel.function)
        record.notes.append(NOTE.format(name=kernel.name, members=names, block=program.block,
                                        ops="; ".join(lines) or "(none: its results are read only by the program)"))
        if not records:
            record.notes.append(program.listing())
        records.append(record)
    return records


def _words(mc: ModuleContext, name: str, program: RowProgram) -> ir.GlobalVariable:
    words = program.words()
    ty = ir.ArrayType(I64, len(words))
    g = internal_global(mc.llmod, ty, mc.unique_name(f"{name}.program"), ir.Constant(ty, [I64(w) for w in words]),
                        align=8)
    g.global_constant = True
    return g


def _constants(mc: ModuleContext, name: str, program: RowProgram) -> ir.GlobalVariable:
    element = TYPES[program.dtype]
    values = program.constants or [0.0]
    ty = ir.ArrayType(element, len(values))
    g = internal_global(mc.llmod, ty, mc.unique_name(f"{name}.constants"),
                        ir.Constant(ty, [ir.Constant(element, v) for v in values]), align=8)
    g.global_constant = True
    return g
