"""The row interpreter: one function per element type that runs any row program (cpu/rows/).

    void hloscope_row_program_<t>(ptr program, ptr pointers, i64 begin, i64 end)

`program` is an i64 array (cpu/rows/program.py writes it), `pointers` the kernel's buffers
(and its constants) in the order the program's slots name them, [begin, end) the rows this
partition runs. The program, word by word:

    width, block, slots, ops, scratch       row length, rows per block, counts, scratch elements
    per slot:  where, offset, advance, row stride, col stride
        where       the pointer it starts from (an index into `pointers`), or SCRATCH
        offset      bytes from there;  advance  bytes it moves per row of the program
        row stride  elements between its rows inside a block;  col stride  1: a vector of
                    `width` elements per row, 0: one value per row
    per op:    code, dst, a, b, c, d           (cpu/rows/ops.py's codes; slots, unused ones 0)

and it runs

    for each block [r0, r0 + rows) of at most `block` rows in [begin, end):
        slot pointer = start + r0 * advance, for every slot
        ask for the next block's rows of the buffers (prefetch)
        for each op:  operands = (pointer, row stride, col stride) of its five slots
                      table[code](operands, rows, width)

Each op is a function of its own, found in a table by its code, with a loop LLVM
vectorizes and the same scalar rules as the generated kernels (backend/scalar_ops.py) in
its body, so a program computes what the generated code would, element for element. A
block's scratch lives on the stack: programs keep it under rows/storage.py's SCRATCH_BYTES,
far below the smallest default thread stack.
"""

from __future__ import annotations

from llvmlite import ir

from ....llvm_types import I64, PTR, VOID, declared, internal_global
from ....loops import for_range
from ....scalar_ops import ScalarContext, emit_binary, emit_unary
from ..rows.ops import CODES, COMMUTATIVE, HEADER, OP_FIELDS, SCRATCH, SLOT_FIELDS, interpreter_name
from .source import FLAGS as REASSOCIATE
from .source import TYPES, reduce_name

I8, I32 = ir.IntType(8), ir.IntType(32)
OPERAND = (PTR, I64, I64)  # pointer, row stride, col stride: 8 bytes each
OPERANDS = len(OP_FIELDS) - 1  # dst, a, b, c, d
OP_TYPE = ir.FunctionType(VOID, [PTR, I64, I64])  # (operands, rows, width)
# LLVM's time for each op function here (ms, f32; f64 is alike): how a part's modules share
# them out, so each of the workers compiling them side by side takes about as long
COST = {("binary", ""): 40, ("fused", ""): 50, ("unary", "erf"): 54, ("unary", "exponential-minus-one"): 49,
        ("unary", "logistic"): 41, ("unary", "tanh"): 39, ("unary", "exponential"): 38,
        ("unary", "log-plus-one"): 34, ("unary", "log"): 32, ("unary", ""): 22, ("reduce", ""): 5, ("", ""): 16}
INTERPRETER_COST = 70


def op_name(kind: str, op: str, dtype: str) -> str:
    return "_".join(["hloscope_rows", kind, *([op.replace("-", "_")] if op else []), dtype])


def row_modules(dtype: str, count: int) -> list[str]:
    """The interpreter for `dtype` as `count` module texts to compile side by side: the
    first holds the interpreter and its table, the op functions are shared out by cost."""
    modules = [ir.Module(name=f"hloscope_rows_{dtype}_{k}") for k in range(max(1, count))]
    load = [INTERPRETER_COST] + [0] * (len(modules) - 1)
    for kind, op in sorted(CODES, key=lambda key: -_cost(*key)):
        k = load.index(min(load))
        _OpFunction(modules[k], dtype, kind, op).define()
        load[k] += _cost(kind, op)
    _emit_interpreter(modules[0], dtype)
    return [str(m) for m in modules]


def _cost(kind: str, op: str) -> int:
    return COST.get((kind, op), COST.get((kind, ""), COST[("", "")]))


class _OpFunction:
    """One op's function: void op(ptr operands, i64 rows, i64 width)."""

    def __init__(self, m: ir.Module, dtype: str, kind: str, op: str):
        self.m, self.dtype, self.ty, self.kind, self.op = m, dtype, TYPES[dtype], kind, op
        self.fn = declared(m, op_name(kind, op, dtype), OP_TYPE)

    def define(self) -> None:
        fn = self.fn
        fn.attributes.add("nounwind")
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        operands, rows, width = fn.args
        slots = [tuple(b.load(_field(b, operands, k, f), typ=t) for f, t in enumerate(OPERAND)) for k in range(OPERANDS)]
        n = b.select(b.icmp_signed("==", slots[0][2], I64(0)), I64(1), width, name="n")  # per row
        body = {"unary": self._unary, "broadcast": self._spread, "copy": self._spread, "binary": self._binary,
                "reduce": self._reduce, "fused": self._fused}[self.kind]
        body(b, slots, rows, n, width)
        b.ret_void()

    def _at(self, b: ir.IRBuilder, ptr, index) -> ir.Value:
        return b.gep(ptr, [index], inbounds=True, source_etype=self.ty)

    def _load(self, b: ir.IRBuilder, ptr, index) -> ir.Value:
        return b.load(self._at(b, ptr, index), typ=self.ty)

    def _rows(self, b: ir.IRBuilder, rows, slots, body) -> None:
        """for r < rows: body(each slot's pointer at row r)."""
        with for_range(b, 0, rows, "r") as r:
            body(*[self._at(b, p, b.mul(r, rs)) for p, rs, _ in slots])

    def _unary(self, b, slots, rows, n, width) -> None:
        """dst[r, i] = op(a[r, i])."""
        ctx = ScalarContext(b, self.m, "cpu")

        def row(pd, pa):
            with for_range(b, 0, n, "i", interleave=False) as i:
                b.store(emit_unary(ctx, self.op, self._load(b, pa, i), self.dtype, self.dtype), self._at(b, pd, i))

        self._rows(b, rows, slots[:2], row)

    def _spread(self, b, slots, rows, n, width) -> None:
        """broadcast dst[r, i] = a[r]; copy dst[r, i] = a[r, i]."""
        def row(pd, pa):
            value = self._load(b, pa, I64(0)) if self.kind == "broadcast" else None
            with for_range(b, 0, n, "i", interleave=False) as i:
                b.store(value if value is not None else self._load(b, pa, i), self._at(b, pd, i))

        self._rows(b, rows, slots[:2], row)

    def _binary(self, b, slots, rows, n, width) -> None:
        """dst[r, i] = op(a[r, i], b[r, i]), a side with col stride 0 one value along the row.
        A loop for vector-vector, one for vector-value (also value-value: then n is 1) and,
        where the op does not commute (programs swap the others' operands), one for
        value-vector."""
        ctx = ScalarContext(b, self.m, "cpu")
        fn = self.fn
        cases = [(True, True), (True, False)] + ([] if self.op in COMMUTATIVE else [(False, True)])
        done = fn.append_basic_block("done")
        blocks = [fn.append_basic_block(f"{'v' if va else 's'}{'v' if vb else 's'}") for va, vb in cases]
        a_vector = b.icmp_signed("!=", slots[1][2], I64(0))
        b_vector = b.icmp_signed("!=", slots[2][2], I64(0))
        if len(cases) == 3:
            either = fn.append_basic_block("a_vector")
            b.cbranch(a_vector, either, blocks[2])
            b.position_at_end(either)
        b.cbranch(b_vector, blocks[0], blocks[1])
        for (vector_a, vector_b), block in zip(cases, blocks):
            b.position_at_end(block)

            def row(pd, pa, pb, vector_a=vector_a, vector_b=vector_b):
                fixed_a = None if vector_a else self._load(b, pa, I64(0))
                fixed_b = None if vector_b else self._load(b, pb, I64(0))
                with for_range(b, 0, n, "i", interleave=False) as i:
                    x = fixed_a if fixed_a is not None else self._load(b, pa, i)
                    z = fixed_b if fixed_b is not None else self._load(b, pb, i)
                    b.store(emit_binary(ctx, self.op, x, z, self.dtype), self._at(b, pd, i))

            self._rows(b, rows, slots[:3], row)
            b.branch(done)
        b.position_at_end(done)

    def _reduce(self, b, slots, rows, n, width) -> None:
        """dst[r] = b[r] op a[r, 0] op ..., by the library's reduction (reassociated, as
        generated reductions are by default)."""
        name = reduce_name(self.op, self.dtype)
        library = declared(self.m, name, ir.FunctionType(self.ty, [PTR, I64, self.ty]))

        def row(pd, pa, pi):
            b.store(b.call(library, [pa, width, b.load(pi, typ=self.ty)]), pd)

        self._rows(b, rows, slots[:3], row)

    def _fused(self, b, slots, rows, n, width) -> None:
        """exp-minus-and-sum: dst[r, i] = exp(a[r, i] - b[r]), d[r] = c[r] + the sum of dst[r, :];
        sum-of-products: dst[r] = c[r] + the sum of a[r, i] * b[r, i]. Sums reassociated, as
        reduce-add's. scale-and-shift: dst[r, i] = a[r, i] * b[r] * c[r, i] + d[r, i]."""
        ctx = ScalarContext(b, self.m, "cpu")
        if self.op == "scale-and-shift":
            self._scale_and_shift(ctx, b, slots, rows, width)
            return
        exp_minus = self.op == "exp-minus-and-sum"
        acc = b.alloca(self.ty, name="acc")

        def row(pd, pa, pb, pc, pt):
            b.store(b.load(pc, typ=self.ty), acc)
            shift = b.load(pb, typ=self.ty) if exp_minus else None
            with for_range(b, 0, width, "i") as i:
                if shift is not None:
                    value = emit_unary(ctx, "exponential", emit_binary(ctx, "subtract", self._load(b, pa, i), shift,
                                                                     self.dtype), self.dtype, self.dtype)
                    b.store(value, self._at(b, pd, i))
                else:
                    value = emit_binary(ctx, "multiply", self._load(b, pa, i), self._load(b, pb, i), self.dtype)
                b.store(b.fadd(b.load(acc, typ=self.ty), value, flags=REASSOCIATE), acc)  # pyright: ignore[reportCallIssue]
            b.store(b.load(acc, typ=self.ty), pt if exp_minus else pd)

        self._rows(b, rows, slots, row)

    def _scale_and_shift(self, ctx, b, slots, rows, width) -> None:
        """Each product and the sum rounded as the three ops would round them."""
        def row(pd, pa, ps, pg, pc):
            scale = b.load(ps, typ=self.ty)
            with for_range(b, 0, width, "i", interleave=False) as i:
                scaled = emit_binary(ctx, "multiply", self._load(b, pa, i), scale, self.dtype)
                gained = emit_binary(ctx, "multiply", scaled, self._load(b, pg, i), self.dtype)
                b.store(emit_binary(ctx, "add", gained, self._load(b, pc, i), self.dtype), self._at(b, pd, i))

        self._rows(b, rows, slots, row)


def _emit_interpreter(m: ir.Module, dtype: str) -> None:
    """hloscope_row_program_<t> (see the module docstring), and its table of op functions."""
    ty = TYPES[dtype]
    functions = [declared(m, op_name(kind, op, dtype), OP_TYPE) for kind, op in CODES]
    table_type = ir.ArrayType(PTR, len(functions))
    table = internal_global(m, table_type, f"hloscope_rows_table_{dtype}", ir.Constant(table_type, functions), align=8)
    table.global_constant = True
    fn = ir.Function(m, ir.FunctionType(VOID, [PTR, PTR, I64, I64]), interpreter_name(dtype))
    fn.attributes.add("nounwind")
    program, pointers, begin, end = fn.args
    program.name, pointers.name, begin.name, end.name = "program", "pointers", "begin", "end"
    b = ir.IRBuilder(fn.append_basic_block("entry"))

    def word(index) -> ir.Value:
        return b.load(b.gep(program, [index], inbounds=True, source_etype=I64), typ=I64)

    def slot_word(slot, field: str) -> ir.Value:
        return word(b.add(I64(len(HEADER)), b.add(b.mul(slot, I64(len(SLOT_FIELDS))), I64(SLOT_FIELDS.index(field)))))

    def element(ptr, index, ty) -> ir.Value:
        return b.gep(ptr, [index], inbounds=True, source_etype=ty)

    head = {name: word(I64(k)) for k, name in enumerate(HEADER)}
    scratch = b.alloca(ty, size=head["scratch"], name="scratch")
    scratch.align = 64  # pyright: ignore[reportAttributeAccessIssue]  # llvmlite's AllocaInstr has it, untyped
    starts, advances, here = (b.alloca(t, size=head["slots"], name=name)
                              for t, name in ((PTR, "starts"), (I64, "advances"), (PTR, "here")))
    operands = b.alloca(ir.ArrayType(ir.LiteralStructType(OPERAND), OPERANDS), name="operands")
    first_op = b.add(I64(len(HEADER)), b.mul(head["slots"], I64(len(SLOT_FIELDS))), name="first_op")
    with for_range(b, 0, head["slots"], "s") as s:  # where each slot starts
        where = slot_word(s, "where")
        base = b.load(element(pointers, b.select(b.icmp_signed("<", where, I64(0)), I64(0), where), PTR), typ=PTR)
        base = b.select(b.icmp_signed("==", where, I64(SCRATCH)), scratch, base)
        b.store(element(base, slot_word(s, "offset"), I8), element(starts, s, PTR))
        b.store(slot_word(s, "advance"), element(advances, s, I64))
    block = head["block"]
    blocks = b.udiv(b.add(b.sub(end, begin), b.sub(block, I64(1))), block, name="blocks")
    with for_range(b, 0, blocks, "k") as k:
        r0 = b.add(begin, b.mul(k, block), name="r0")
        left = b.sub(end, r0)
        rows = b.select(b.icmp_signed("<", left, block), left, block, name="rows")
        with for_range(b, 0, head["slots"], "s") as s:  # the slots at this block
            step = b.mul(r0, b.load(element(advances, s, I64), typ=I64))
            b.store(element(b.load(element(starts, s, PTR), typ=PTR), step, I8), element(here, s, PTR))
        _prefetch_next_block(m, b, head["slots"], here, advances, block)
        with for_range(b, 0, head["ops"], "op") as op:
            at = b.add(first_op, b.mul(op, I64(len(OP_FIELDS))))
            for j in range(OPERANDS):
                slot = word(b.add(at, I64(j + 1)))
                fields = (b.load(element(here, slot, PTR), typ=PTR), slot_word(slot, "row_stride"),
                          slot_word(slot, "col_stride"))
                for f, value in enumerate(fields):
                    b.store(value, b.gep(operands, [I32(0), I32(j), I32(f)], inbounds=True))  # typed: as parallel.py
            run = b.load(b.gep(table, [I32(0), word(at)], inbounds=True, source_etype=table_type),
                         typ=OP_TYPE.as_pointer())  # a typed pointer: llvmlite takes the call's type from it
            b.call(run, [operands, rows, head["width"]])
    b.ret_void()


def _field(b: ir.IRBuilder, operands, k: int, f: int) -> ir.Value:
    """Field f of operand k in the operands array (8 bytes each)."""
    return b.gep(operands, [I64((k * len(OPERAND) + f) * 8)], inbounds=True, source_etype=I8)


def _prefetch_next_block(m: ir.Module, b: ir.IRBuilder, slots, here, advances, block) -> None:
    """Ask for the next block's rows of every buffer that moves a line or more per row, while
    this block computes: the ops then find them in cache rather than wait on memory
    (layer norm at 4096 x 1024, one thread: 3.7 -> 3.0 ms)."""
    prefetch = declared(m, "llvm.prefetch.p0", ir.FunctionType(VOID, [PTR, I32, I32, I32]))
    with for_range(b, 0, slots, "s") as s:
        advance = b.load(b.gep(advances, [s], inbounds=True, source_etype=I64), typ=I64)
        with b.if_then(b.icmp_signed(">=", advance, I64(64))):
            here_s = b.load(b.gep(here, [s], inbounds=True, source_etype=PTR), typ=PTR)
            span = b.mul(advance, block)
            with for_range(b, 0, b.udiv(span, I64(64)), "line") as line:
                at = b.gep(here_s, [b.add(span, b.mul(line, I64(64)))], source_etype=I8)
                b.call(prefetch, [at, I32(0), I32(3), I32(1)])
