"""The row interpreter's instruction set: one number per operation, shared by the programs
(program.py writes them) and the interpreter (library/rows.py runs them).

    broadcast          dst[r, :] = a[r]            a value per row, spread along it
    copy               dst[r, :] = a[r, :]         a row (or the same vector for every row)
    <unary op>         dst = op(a)                 elementwise, as the generated kernels compute it
    <binary op>        dst = op(a, b)              either side a vector or one value per row
    reduce-<op>        dst[r] = b[r] op a[r, 0] op ... op a[r, width-1]
    exp-minus-and-sum  dst = exp(a - b), d[r] = c[r] + sum of dst[r, :]    (fused: fuse.py)
    sum-of-products    dst[r] = c[r] + sum of a[r, :] * b[r, :]
    scale-and-shift    dst = a * b * c + d          a, c, d vectors, b one value per row (fused)

Every operand is a slot (program.py): a pointer per block of rows, a stride between rows and
whether it holds a vector of `width` elements per row or one value per row.

The interpreter's calling convention is here too, what both sides must agree on: its name,
and the layout of the program's words (library/rows.py describes each field).
"""

from __future__ import annotations

# What row-wise programs compute (normalizations, softmax, their activations); rarer ops keep
# their program generated: each op function costs the interpreter's build 15-55 ms of LLVM.
UNARY = ("negate", "abs", "sqrt", "rsqrt", "exponential", "exponential-minus-one", "log", "log-plus-one",
         "logistic", "tanh", "erf")
BINARY = ("add", "subtract", "multiply", "divide", "maximum", "minimum")
COMMUTATIVE = ("add", "multiply", "maximum", "minimum")  # a program puts the vector first
REDUCERS = ("add", "maximum", "minimum")
FUSED_SUMS = ("exp-minus-and-sum", "sum-of-products")  # XNNPACK's softmax and variance microkernels, as here
FUSED = (*FUSED_SUMS, "scale-and-shift")  # and its normalization's last pass
TYPES = ("f32", "f64")

# (kind, op) in code order: the code of an operation is its index
CODES: tuple[tuple[str, str], ...] = (
    ("broadcast", ""), ("copy", ""),
    *(("unary", op) for op in UNARY),
    *(("binary", op) for op in BINARY),
    *(("reduce", op) for op in REDUCERS),
    *(("fused", op) for op in FUSED),
)


def code(kind: str, op: str = "") -> int:
    """The number of an operation (kind broadcast, copy, unary, binary or reduce)."""
    return CODES.index((kind, op))


def mnemonic(kind: str, op: str) -> str:
    """How the listing names it."""
    return f"reduce-{op}" if kind == "reduce" else (op or kind)


def interpreter_name(dtype: str) -> str:
    return f"hloscope_row_program_{dtype}"


SCRATCH = -1  # a slot's `where` for the block's scratch (else an index into the pointer table)
HEADER = ("width", "block", "slots", "ops", "scratch")
SLOT_FIELDS = ("where", "offset", "advance", "row_stride", "col_stride")
OP_FIELDS = ("code", "dst", "a", "b", "c", "d")
