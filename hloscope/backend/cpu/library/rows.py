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
        for each op:  the op's loop over the block's rows (and each row's `width` elements)

Each op is a function of its own with a loop LLVM vectorizes, the same scalar rules as the
generated kernels (backend/scalar_ops.py) in its body, so a program computes what the
generated code would, element for element. A block's scratch lives on the stack: programs
keep it under rows/program.py's SCRATCH_BYTES, far below the smallest default thread stack.
"""

from __future__ import annotations

from llvmlite import ir

from ...llvm_types import I64, PTR, VOID
from ...loops import for_range
from ...scalar_ops import ScalarContext, emit_binary, emit_unary
from ..rows.ops import BINARY, CODES, COMMUTATIVE, HEADER, OP_FIELDS, REDUCERS, SCRATCH, SLOT_FIELDS, UNARY, \
    interpreter_name
from .source import FLAGS as REASSOCIATE
from .source import TYPES, reduce_name

I8 = ir.IntType(8)
# LLVM's time for each op function, roughly (a binary op has two or three loops, the
# transcendentals long bodies): how the part's modules share them out
COST = {"binary": 3, "exponential": 2, "exponential-minus-one": 2, "log": 2, "log-plus-one": 2, "erf": 2,
        "tanh": 2, "logistic": 2}
INTERPRETER_COST = 4


def op_name(kind: str, op: str, dtype: str) -> str:
    return "_".join(["hloscope_rows", kind, *([op.replace("-", "_")] if op else []), dtype])


def row_modules(dtype: str, count: int) -> list[str]:
    """The interpreter for `dtype` as `count` module texts to compile side by side: the
    first holds the interpreter, the op functions are shared out by their cost."""
    modules = [ir.Module(name=f"hloscope_rows_{dtype}_{k}") for k in range(max(1, count))]
    load = [INTERPRETER_COST] + [0] * (len(modules) - 1)
    home: dict[tuple[str, str], ir.Module] = {}
    for key in sorted(CODES, key=lambda key: -_cost(*key)):
        k = load.index(min(load))
        home[key], load[k] = modules[k], load[k] + _cost(*key)
    for (kind, op), m in home.items():
        _OpFunctions(m, dtype).define(kind, op)
    _emit_interpreter(modules[0], dtype)
    return [str(m) for m in modules]


def _cost(kind: str, op: str) -> int:
    return COST.get("binary" if kind == "binary" else op, 1)


class _OpFunctions:
    """The op functions of one element type, defined in (or declared into) one module."""

    def __init__(self, m: ir.Module, dtype: str):
        self.m, self.dtype, self.ty = m, dtype, TYPES[dtype]

    SIGNATURES = {"binary": "pipiipiiii", "reduce": "pipipiii", "unary": "pipiii", "broadcast": "pipiii",
                  "copy": "pipiii", "exp-minus-and-sum": "pipipipipiii", "sum-of-products": "pipipipiii"}

    def function(self, kind: str, op: str) -> ir.Function:
        """The op's function in this module: its definition if made here, else a declaration."""
        name = op_name(kind, op, self.dtype)
        found = self.m.globals.get(name)
        if isinstance(found, ir.Function):
            return found
        signature = self.SIGNATURES[op if kind == "fused" else kind]
        return ir.Function(self.m, ir.FunctionType(VOID, [PTR if c == "p" else I64 for c in signature]), name)

    def define(self, kind: str, op: str) -> None:
        fn = self.function(kind, op)
        fn.attributes.add("nounwind")
        b = ir.IRBuilder(fn.append_basic_block("entry"))
        {"unary": self._unary, "broadcast": self._spread, "copy": self._spread, "binary": self._binary,
         "reduce": self._reduce, "fused": self._fused}[kind](fn, b, kind, op)
        b.ret_void()

    def _at(self, b: ir.IRBuilder, ptr, index) -> ir.Value:
        return b.gep(ptr, [index], inbounds=True, source_etype=self.ty)

    def _load(self, b: ir.IRBuilder, ptr, index) -> ir.Value:
        return b.load(self._at(b, ptr, index), typ=self.ty)

    def _rows(self, b: ir.IRBuilder, rows, strides: list, pointers: list, body) -> None:
        """for r < rows: body(pointer + r * stride, ...) for each (pointer, stride)."""
        with for_range(b, 0, rows, "r") as r:
            body(*[self._at(b, p, b.mul(r, s)) for p, s in zip(pointers, strides)])

    def _unary(self, fn, b, kind, op) -> None:
        """(dst, dst_rs, a, a_rs, rows, n): dst[r, i] = op(a[r, i])."""
        dst, d_rs, a, a_rs, rows, n = fn.args
        ctx = ScalarContext(b, self.m, "cpu")

        def row(pd, pa):
            with for_range(b, 0, n, "i", interleave=False) as i:
                b.store(emit_unary(ctx, op, self._load(b, pa, i), self.dtype, self.dtype), self._at(b, pd, i))

        self._rows(b, rows, [d_rs, a_rs], [dst, a], row)

    def _spread(self, fn, b, kind, op) -> None:
        """(dst, dst_rs, a, a_rs, rows, n): broadcast dst[r, i] = a[r]; copy dst[r, i] = a[r, i]."""
        dst, d_rs, a, a_rs, rows, n = fn.args

        def row(pd, pa):
            value = self._load(b, pa, I64(0)) if kind == "broadcast" else None
            with for_range(b, 0, n, "i", interleave=False) as i:
                b.store(value if value is not None else self._load(b, pa, i), self._at(b, pd, i))

        self._rows(b, rows, [d_rs, a_rs], [dst, a], row)

    def _binary(self, fn, b, kind, op) -> None:
        """(dst, dst_rs, a, a_rs, a_cs, b, b_rs, b_cs, rows, n): dst[r, i] = op(a[r, i], b[r, i]),
        a side with col stride 0 one value along the row. A loop for vector-vector, one for
        vector-value (also value-value: then n is 1) and, where the op does not commute
        (programs swap the others' operands), one for value-vector."""
        dst, d_rs, a, a_rs, a_cs, y, b_rs, b_cs, rows, n = fn.args
        ctx = ScalarContext(b, self.m, "cpu")
        cases = [(True, True), (True, False)] + ([] if op in COMMUTATIVE else [(False, True)])
        done = fn.append_basic_block("done")
        blocks = [fn.append_basic_block(f"{'v' if va else 's'}{'v' if vb else 's'}") for va, vb in cases]
        b_vector = b.icmp_signed("!=", b_cs, I64(0))
        a_vector = b.icmp_signed("!=", a_cs, I64(0))
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
                    b.store(emit_binary(ctx, op, x, z, self.dtype), self._at(b, pd, i))

            self._rows(b, rows, [d_rs, a_rs, b_rs], [dst, a, y], row)
            b.branch(done)
        b.position_at_end(done)

    def _reduce(self, fn, b, kind, op) -> None:
        """(dst, dst_rs, a, a_rs, init, init_rs, rows, n): dst[r] = init[r] op a[r, 0] op ...,
        by the library's reduction (reassociated, as generated reductions are by default)."""
        dst, d_rs, a, a_rs, init, i_rs, rows, n = fn.args
        name = reduce_name(op, self.dtype)
        library = self.m.globals.get(name) or ir.Function(self.m, ir.FunctionType(self.ty, [PTR, I64, self.ty]), name)

        def row(pd, pa, pi):
            b.store(b.call(library, [pa, n, b.load(pi, typ=self.ty)]), pd)

        self._rows(b, rows, [d_rs, a_rs, i_rs], [dst, a, init], row)


    def _fused(self, fn, b, kind, op) -> None:
        """exp-minus-and-sum (dst, dst_rs, a, a_rs, m, m_rs, init, init_rs, sum, sum_rs, rows, n):
        dst[r, i] = exp(a[r, i] - m[r]), sum[r] = init[r] + the sum of dst[r, :];
        sum-of-products (sum, sum_rs, a, a_rs, y, y_rs, init, init_rs, rows, n):
        sum[r] = init[r] + the sum of a[r, i] * y[r, i]. Sums reassociated, as reduce-add's."""
        ctx = ScalarContext(b, self.m, "cpu")
        if op == "exp-minus-and-sum":
            dst, d_rs, a, a_rs, m, m_rs, init, i_rs, total, t_rs, rows, n = fn.args
            strides, pointers = [d_rs, a_rs, m_rs, i_rs, t_rs], [dst, a, m, init, total]
        else:
            total, t_rs, a, a_rs, y, y_rs, init, i_rs, rows, n = fn.args
            strides, pointers = [t_rs, a_rs, y_rs, i_rs], [total, a, y, init]

        def row(*p):
            acc = b.alloca(self.ty, name="acc")
            b.store(b.load(p[3], typ=self.ty), acc)
            shift = b.load(p[2], typ=self.ty) if op == "exp-minus-and-sum" else None
            with for_range(b, 0, n, "i") as i:
                if shift is not None:
                    value = emit_unary(ctx, "exponential", emit_binary(ctx, "subtract", self._load(b, p[1], i), shift,
                                                                     self.dtype), self.dtype, self.dtype)
                    b.store(value, self._at(b, p[0], i))
                else:
                    value = emit_binary(ctx, "multiply", self._load(b, p[1], i), self._load(b, p[2], i), self.dtype)
                b.store(b.fadd(b.load(acc, typ=self.ty), value, flags=REASSOCIATE), acc)  # pyright: ignore[reportCallIssue]
            b.store(b.load(acc, typ=self.ty), p[4] if op == "exp-minus-and-sum" else p[0])

        self._rows(b, rows, strides, pointers, row)


def _emit_interpreter(m: ir.Module, dtype: str) -> None:
    """hloscope_row_program_<t> (see the module docstring)."""
    ty = TYPES[dtype]
    ops = _OpFunctions(m, dtype)
    fn = ir.Function(m, ir.FunctionType(VOID, [PTR, PTR, I64, I64]), interpreter_name(dtype))
    fn.attributes.add("nounwind")
    program, pointers, begin, end = fn.args
    program.name, pointers.name, begin.name, end.name = "program", "pointers", "begin", "end"
    b = ir.IRBuilder(fn.append_basic_block("entry"))

    def word(index) -> ir.Value:
        return b.load(b.gep(program, [index], inbounds=True, source_etype=I64), typ=I64)

    def slot_word(slot, field: str) -> ir.Value:
        return word(b.add(I64(len(HEADER)), b.add(b.mul(slot, I64(len(SLOT_FIELDS))), I64(SLOT_FIELDS.index(field)))))

    def array(ty, name: str, size):
        return b.alloca(ty, size=size, name=name)

    def element(ptr, index, ty) -> ir.Value:
        return b.gep(ptr, [index], inbounds=True, source_etype=ty)

    head = {name: word(I64(k)) for k, name in enumerate(HEADER)}
    scratch = array(ty, "scratch", head["scratch"])
    scratch.align = 64  # pyright: ignore[reportAttributeAccessIssue]  # llvmlite's AllocaInstr has it, untyped
    starts, advances, here = array(PTR, "starts", head["slots"]), array(I64, "advances", head["slots"]), \
        array(PTR, "here", head["slots"])
    first_op = b.add(I64(len(HEADER)), b.mul(head["slots"], I64(len(SLOT_FIELDS))), name="first_op")
    with for_range(b, 0, head["slots"], "s") as s:  # where each slot starts
        where = slot_word(s, "where")
        table = b.load(element(pointers, b.select(b.icmp_signed("<", where, I64(0)), I64(0), where), PTR), typ=PTR)
        base = b.select(b.icmp_signed("==", where, I64(SCRATCH)), scratch, table)
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
            code, *slots = (word(b.add(at, I64(j))) for j in range(len(OP_FIELDS)))
            operands = [(b.load(element(here, slot, PTR), typ=PTR), slot_word(slot, "row_stride"),
                         slot_word(slot, "col_stride")) for slot in slots]
            _dispatch(fn, b, ops, code, operands, rows, head["width"])
    b.ret_void()


def _prefetch_next_block(m: ir.Module, b: ir.IRBuilder, slots, here, advances, block) -> None:
    """Ask for the next block's rows of every buffer that moves a line or more per row, while
    this block computes: the ops then find them in cache rather than wait on memory."""
    prefetch = m.globals.get("llvm.prefetch.p0") or ir.Function(
        m, ir.FunctionType(VOID, [PTR, ir.IntType(32), ir.IntType(32), ir.IntType(32)]), "llvm.prefetch.p0")
    with for_range(b, 0, slots, "s") as s:
        advance = b.load(b.gep(advances, [s], inbounds=True, source_etype=I64), typ=I64)
        with b.if_then(b.icmp_signed(">=", advance, I64(64))):
            here_s = b.load(b.gep(here, [s], inbounds=True, source_etype=PTR), typ=PTR)
            span = b.mul(advance, block)
            with for_range(b, 0, b.udiv(span, I64(64)), "line") as line:
                at = b.gep(here_s, [b.add(span, b.mul(line, I64(64)))], source_etype=I8)
                b.call(prefetch, [at, ir.IntType(32)(0), ir.IntType(32)(3), ir.IntType(32)(1)])


def _dispatch(fn: ir.Function, b: ir.IRBuilder, ops: _OpFunctions, code, operands, rows, width) -> None:
    """switch (code) { case k: op_k(the slots' pointers and strides, rows, n); }"""
    (dst, d_rs, d_cs), (a, a_rs, a_cs), (y, b_rs, b_cs), (c, c_rs, _), (d, d2_rs, _) = operands
    n = b.select(b.icmp_signed("==", d_cs, I64(0)), I64(1), width, name="n")
    after = fn.append_basic_block("dispatched")
    switch = b.switch(code, after)
    for number, (kind, op) in enumerate(CODES):
        case = fn.append_basic_block(f"{kind}.{op}" if op else kind)
        switch.add_case(I64(number), case)
        b.position_at_end(case)
        if kind == "binary":
            args = [dst, d_rs, a, a_rs, a_cs, y, b_rs, b_cs, rows, n]
        elif kind == "reduce":
            args = [dst, d_rs, a, a_rs, y, b_rs, rows, width]
        elif op == "exp-minus-and-sum":
            args = [dst, d_rs, a, a_rs, y, b_rs, c, c_rs, d, d2_rs, rows, width]
        elif op == "sum-of-products":
            args = [dst, d_rs, a, a_rs, y, b_rs, c, c_rs, rows, width]
        else:
            args = [dst, d_rs, a, a_rs, rows, n]
        b.call(ops.function(kind, op), args)
        b.branch(after)
    b.position_at_end(after)
