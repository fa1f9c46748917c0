"""The opcode table: one row of facts per HLO opcode, in XLA's spelling.

Every later stage asks this table rather than keeping its own lists: the parser (is the
opcode known?), the verifier (how many operands?), the passes (is it elementwise? is it
expensive?) and the backends.
"""

from __future__ import annotations

from dataclasses import dataclass

VARIADIC = None


@dataclass(frozen=True)
class OpInfo:
    """Facts about one opcode."""

    name: str
    arity: int | None  # None: any number of operands
    kind: str  # "unary", "binary", "ternary", "leaf", "data", "reduce", "control", "other", "collective", "async"
    elementwise: bool = False
    commutative: bool = False
    expensive: bool = False  # worth not duplicating when fusing (XLA's IsExpensive)


def _rows(kind, names, arity, elementwise=False, expensive=(), commutative=()):
    return [
        OpInfo(n, arity, kind, elementwise, n in commutative, n in expensive) for n in names.split()
    ]


UNARY = (
    "abs negate exponential exponential-minus-one log log-plus-one sqrt rsqrt cbrt tanh "
    "logistic sine cosine tan floor ceil round-nearest-even round-nearest-afz sign not "
    "is-finite erf popcnt count-leading-zeros convert bitcast-convert copy real imag "
    "reduce-precision"
)
BINARY = (
    "add subtract multiply divide remainder maximum minimum power atan2 and or xor "
    "shift-left shift-right-arithmetic shift-right-logical compare complex"
)
_EXPENSIVE = set(
    "exponential exponential-minus-one log log-plus-one sqrt rsqrt cbrt tanh logistic sine "
    "cosine tan erf divide remainder power atan2".split()
)
_COMMUTATIVE = set("add multiply maximum minimum and or xor".split())

_TABLE: list[OpInfo] = [
    *_rows("unary", UNARY, 1, True, _EXPENSIVE),
    *_rows("binary", BINARY, 2, True, _EXPENSIVE, _COMMUTATIVE),
    *_rows("ternary", "select clamp", 3, True),
    *_rows("leaf", "parameter constant iota partition-id replica-id", 0),
    *_rows("other", "rng-bit-generator", 1),  # its one operand is the generator's state
    *_rows("leaf", "after-all", VARIADIC),
    *_rows("data", "broadcast reshape transpose slice reverse bitcast", 1),
    *_rows("data", "pad dynamic-update-slice gather", None),
    *_rows("data", "dynamic-slice concatenate", VARIADIC),
    *_rows("data", "get-tuple-element", 1),
    *_rows("data", "tuple", VARIADIC),
    *_rows("reduce", "reduce reduce-window sort map", VARIADIC),
    *_rows("reduce", "scatter select-and-scatter", VARIADIC),
    *_rows("reduce", "topk", 1),
    *_rows("other", "dot convolution", 2),
    *_rows("other", "fft", 1),
    *_rows("control", "call fusion while conditional custom-call", VARIADIC),
    *_rows("control", "scan", VARIADIC),
    *_rows("other", "opt-barrier", 1),
    *_rows("other", "rng", VARIADIC),
    *_rows("other", "batch-norm-training triangular-solve", None),
    *_rows("other", "batch-norm-inference batch-norm-grad", None),
    *_rows("other", "cholesky domain", 1),
    *_rows("other", "add-dependency outfeed", 2),
    *_rows("other", "infeed", 1),
    *_rows("leaf", "rng-get-and-update-state", 0),
    # Collectives and their async halves (XLA's HloOpcode list); one device evaluates them.
    *_rows("collective", "all-reduce all-gather all-to-all reduce-scatter collective-permute "
           "collective-broadcast all-reduce-start all-gather-start collective-permute-start", VARIADIC),
    *_rows("collective", "ragged-all-to-all", 6),
    *_rows("collective", "all-reduce-done all-gather-done collective-permute-done", 1),
    *_rows("async", "async-start custom-call-start", VARIADIC),
    *_rows("async", "async-update async-done custom-call-update custom-call-done copy-start copy-done", 1),
    *_rows("async", "send", 2),
    *_rows("async", "send-done recv recv-done", 1),
]
# Fixed arities that the loop above leaves variadic for brevity.
_FIXED = {"pad": 2, "dynamic-update-slice": None, "gather": 2, "while": 1, "select-and-scatter": 3,
          "batch-norm-training": 3, "triangular-solve": 2, "batch-norm-inference": 5, "batch-norm-grad": 5}

OPCODES: dict[str, OpInfo] = {}
for _row in _TABLE:
    arity = _FIXED.get(_row.name, _row.arity)
    OPCODES[_row.name] = OpInfo(
        _row.name, arity, _row.kind, _row.elementwise, _row.commutative, _row.expensive
    )

COMPARISON_DIRECTIONS = ("EQ", "NE", "GE", "GT", "LE", "LT")
COMPARISON_TYPES = ("FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED")
# jaxlib 0.12 writes `order=TOTAL` where 0.10 wrote `type=TOTALORDER` (a sort comparator's
# float keys, NaN last); PARTIAL is the IEEE order, FLOAT's.
COMPARISON_ORDERS = ("TOTAL", "PARTIAL")
FUSION_KINDS = ("kLoop", "kInput", "kOutput", "kCustom")
FFT_TYPES = ("FFT", "IFFT", "RFFT", "IRFFT")
TRANSPOSE_KINDS = ("NO_TRANSPOSE", "TRANSPOSE", "ADJOINT")  # triangular-solve's transpose_a

# Attributes whose value names other computations, and how many (one name or a list).
COMPUTATION_ATTRS = {
    "to_apply": 1,
    "calls": 1,  # also async-start's wrapped computation
    "condition": 1,
    "body": 1,
    "select": 1,
    "scatter": 1,
    "true_computation": 1,
    "false_computation": 1,
    "branch_computations": "list",
    "called_computations": "list",
}


def is_known(opcode: str) -> bool:
    return opcode in OPCODES


def info(opcode: str) -> OpInfo:
    return OPCODES[opcode]


def is_elementwise(opcode: str) -> bool:
    row = OPCODES.get(opcode)
    return bool(row and row.elementwise)


def comparison_type(compare) -> str | None:
    """A compare instruction's `type`, reading `order` as the same thing (TOTAL as TOTALORDER,
    which on integers changes nothing: their order is total anyway); None where it names
    neither (FLOAT for floats, the operands' own signedness for integers)."""
    kind = compare.attr("type")
    if kind is None and compare.attr("order") is not None:
        return "TOTALORDER" if compare.attr("order") == "TOTAL" else "FLOAT"
    return kind
