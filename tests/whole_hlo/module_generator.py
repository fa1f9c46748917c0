"""Random whole HLO modules that XLA accepts, from a seed (random.Random, so the benchmark and
the tests see the same module for the same seed; the hypothesis tests draw the seed).

A module has one to three parameters and a chain of 3 to 14 instructions drawn from a menu of
about thirty opcodes (elementwise, compare/select, convert, broadcast, reshape, transpose,
slice, reverse, concatenate, pad, iota, constants of every array rank, reduce, map, dot,
dynamic-slice, clamp, reduce-precision, tuple/get-tuple-element, call), each with operands of
the right shapes, optional layouts, metadata and frontend attributes, `%` names or bare ones,
sometimes an input_output_alias; helper computations (reduce's add, call's callee) come first.
`Generated.insts` says which line holds which instruction, for the mutations.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

FLOATS = ("f32", "f16", "bf16", "f64")
INTS = ("s32", "s8", "u8", "s64", "u32")
TRANSCENDENTAL = ("exponential", "log", "tanh", "sine", "cosine", "sqrt", "rsqrt", "logistic",
                  "exponential-minus-one", "log-plus-one", "cbrt")
FLOAT_UNARY = (*TRANSCENDENTAL, "negate", "abs", "floor", "ceil", "sign", "round-nearest-even")
INT_UNARY = ("negate", "abs", "not", "popcnt", "count-leading-zeros", "sign")
UNSIGNED_UNARY = ("not", "popcnt", "count-leading-zeros")
NUMERIC_BINARY = ("add", "subtract", "multiply", "maximum", "minimum")
FLOAT_BINARY = ("divide", "power", "atan2", "remainder")
INT_BINARY = ("and", "or", "xor", "shift-left", "shift-right-logical")
DIRECTIONS = ("EQ", "NE", "LT", "LE", "GT", "GE")


@dataclass
class Value:
    name: str
    dtype: str
    dims: tuple[int, ...]


@dataclass
class GenInst:
    """One generated instruction: its 1-based line, name, opcode and pieces of its text."""

    line: int
    name: str
    opcode: str
    shape: str
    operands: list[str]
    attrs: list[str]


@dataclass
class Generated:
    lines: list[str]
    insts: list[GenInst] = field(default_factory=list)
    pct: str = ""  # "%" when names are written XLA's way

    def render(self, inst: GenInst) -> str:
        """`inst`'s line as written, ROOT or not (a mutation changes a field and renders again)."""
        root = "ROOT " if self.lines[inst.line - 1].lstrip().startswith("ROOT ") else ""
        p = self.pct
        args = inst.operands[0] if inst.opcode in ("parameter", "constant") else ", ".join(p + o for o in inst.operands)
        return f"  {root}{p}{inst.name} = {inst.shape} {inst.opcode}({args})" + "".join(", " + a for a in inst.attrs)

    @property
    def text(self) -> str:
        return "\n".join(self.lines) + "\n"


class _Builder:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.pct = "%" if rng.random() < 0.3 else ""
        self.counter = 0
        self.helpers: list[list[str]] = []  # computations before ENTRY, as lines
        self.helper_names: set[str] = set()
        self.body: list[tuple[str, str, str, list[str], list[str]]] = []  # (name, shape, opcode, operands, attrs)
        self.values: list[Value] = []

    # ---- text pieces ----
    def shape(self, dtype: str, dims: tuple[int, ...], layout_ok: bool = True) -> str:
        text = f"{dtype}[{','.join(map(str, dims))}]"
        if dims and layout_ok and self.rng.random() < 0.3:
            order = list(range(len(dims)))[::-1]
            if self.rng.random() < 0.3:
                self.rng.shuffle(order)
            text += "{" + ",".join(map(str, order)) + "}"
        return text

    def scalar_literal(self, dtype: str) -> str:
        r = self.rng
        if dtype == "pred":
            return r.choice(("true", "false"))
        if dtype in FLOATS:
            return r.choice(("0", "1", "-1", "0.5", "2.25", "-3.5", "10"))
        low = 0 if dtype.startswith("u") else -5
        return str(r.randint(low, 9))

    def literal(self, dtype: str, dims: tuple[int, ...]) -> str:
        if not dims:
            return self.scalar_literal(dtype)
        inner = [self.literal(dtype, dims[1:]) for _ in range(dims[0])]
        return "{" + ", ".join(inner) + "}"

    def emit(self, opcode: str, dtype: str, dims: tuple[int, ...], operands: list[str], attrs: list[str],
             shape: str | None = None) -> Value:
        self.counter += 1
        name = f"{opcode}.{self.counter}"
        if self.rng.random() < 0.15:
            attrs = [*attrs, f'metadata={{op_name="gen/{opcode}" source_file="gen.py" source_line={self.counter}}}']
        elif self.rng.random() < 0.05:
            attrs = [*attrs, 'frontend_attributes={_xla_gen="true"}']
        self.body.append((name, shape or self.shape(dtype, dims), opcode, operands, attrs))
        value = Value(name, dtype, dims)
        self.values.append(value)
        return value

    def dims(self, max_rank: int = 3) -> tuple[int, ...]:
        return tuple(self.rng.randint(1, 4) for _ in range(self.rng.randint(0, max_rank)))

    def pick(self, test=lambda v: True) -> Value | None:
        found = [v for v in self.values if test(v)]
        return self.rng.choice(found) if found else None

    def constant(self, dtype: str) -> Value:
        """A scalar constant (a pad value, a reduce's init, a start index)."""
        return self.emit("constant", dtype, (), [self.scalar_literal(dtype)], [])

    def helper(self, name: str, lines: list[str]) -> str:
        if name not in self.helper_names:
            self.helper_names.add(name)
            self.helpers.append(lines)
        return name

    def add_computation(self, dtype: str) -> str:
        combine = "or" if dtype == "pred" else "add"
        p = self.pct
        return self.helper(f"add_{dtype}", [
            f"{p}add_{dtype} {{", f"  {p}x = {dtype}[] parameter(0)", f"  {p}y = {dtype}[] parameter(1)",
            f"  ROOT {p}s = {dtype}[] {combine}({p}x, {p}y)", "}"])


def _is_float(v: Value) -> bool:
    return v.dtype in FLOATS


def _is_int(v: Value) -> bool:
    return v.dtype in INTS


def _numeric(v: Value) -> bool:
    return v.dtype != "pred"


# ---- the op menu: each adds zero or more instructions, or returns False when nothing fits ----
def op_unary(b: _Builder) -> bool:
    v = b.pick(lambda v: v.dtype != "pred")
    if v is None:
        return False
    # (abs and sign of an unsigned integer: StableHLO, which XLA compiles through, refuses them)
    menu = FLOAT_UNARY if _is_float(v) else UNSIGNED_UNARY if v.dtype.startswith("u") else INT_UNARY
    opcode = b.rng.choice(menu)
    attrs = ["result_accuracy={mode=highest}"] if opcode in TRANSCENDENTAL and b.rng.random() < 0.1 else []
    b.emit(opcode, v.dtype, v.dims, [v.name], attrs)
    return True


def op_binary(b: _Builder) -> bool:
    v = b.pick(_numeric)
    if v is None:
        return False
    menu = NUMERIC_BINARY + (FLOAT_BINARY if _is_float(v) else INT_BINARY)
    other = b.pick(lambda w: w.dtype == v.dtype and w.dims == v.dims) or v
    b.emit(b.rng.choice(menu), v.dtype, v.dims, [v.name, other.name], [])
    return True


def op_compare_select(b: _Builder) -> bool:
    v = b.pick(_numeric)
    if v is None:
        return False
    other = b.pick(lambda w: w.dtype == v.dtype and w.dims == v.dims) or v
    pred = b.emit("compare", "pred", v.dims, [v.name, other.name], [f"direction={b.rng.choice(DIRECTIONS)}"])
    if b.rng.random() < 0.7:
        b.emit("select", v.dtype, v.dims, [pred.name, v.name, other.name], [])
    return True


def op_convert(b: _Builder) -> bool:
    v = b.pick()
    if v is None:
        return False
    b.emit("convert", b.rng.choice((*FLOATS, *INTS, "pred")), v.dims, [v.name], [])
    return True


def op_broadcast(b: _Builder) -> bool:
    v = b.pick(lambda v: len(v.dims) <= 2)
    if v is None:
        return False
    out = list(v.dims)
    for _ in range(b.rng.randint(1, 2)):
        out.insert(b.rng.randint(0, len(out)), b.rng.randint(1, 3))
    # the operand's dimensions keep their order among the result's: map them left to right
    mapping, j = [], 0
    for i, d in enumerate(out):
        if j < len(v.dims) and d == v.dims[j] and len(out) - i > len(v.dims) - j - 1:
            mapping.append(i)
            j += 1
    if j < len(v.dims):
        return False
    b.emit("broadcast", v.dtype, tuple(out), [v.name], ["dimensions={" + ",".join(map(str, mapping)) + "}"])
    return True


def op_reshape(b: _Builder) -> bool:
    v = b.pick(lambda v: len(v.dims) >= 1)
    if v is None:
        return False
    size = 1
    for d in v.dims:
        size *= d
    out = b.rng.choice(((size,), (1, size), (size, 1)))
    b.emit("reshape", v.dtype, out, [v.name], [])
    return True


def op_transpose(b: _Builder) -> bool:
    v = b.pick(lambda v: len(v.dims) >= 2)
    if v is None:
        return False
    perm = list(range(len(v.dims)))
    b.rng.shuffle(perm)
    b.emit("transpose", v.dtype, tuple(v.dims[p] for p in perm), [v.name], ["dimensions={" + ",".join(map(str, perm)) + "}"])
    return True


def op_slice(b: _Builder) -> bool:
    v = b.pick(lambda v: len(v.dims) >= 1)
    if v is None:
        return False
    parts, out = [], []
    for d in v.dims:
        start = b.rng.randint(0, d - 1)
        limit = b.rng.randint(start + 1, d)
        stride = b.rng.choice((1, 1, 2))
        parts.append(f"[{start}:{limit}" + (f":{stride}]" if stride != 1 else "]"))
        out.append((limit - start + stride - 1) // stride)
    b.emit("slice", v.dtype, tuple(out), [v.name], ["slice={" + ", ".join(parts) + "}"])
    return True


def op_reverse(b: _Builder) -> bool:
    v = b.pick(lambda v: len(v.dims) >= 1)
    if v is None:
        return False
    dims = sorted(b.rng.sample(range(len(v.dims)), b.rng.randint(1, len(v.dims))))
    b.emit("reverse", v.dtype, v.dims, [v.name], ["dimensions={" + ",".join(map(str, dims)) + "}"])
    return True


def op_concatenate(b: _Builder) -> bool:
    v = b.pick(lambda v: len(v.dims) >= 1)
    if v is None:
        return False
    d = b.rng.randrange(len(v.dims))
    out = list(v.dims)
    out[d] *= 2
    b.emit("concatenate", v.dtype, tuple(out), [v.name, v.name], [f"dimensions={{{d}}}"])
    return True


def op_pad(b: _Builder) -> bool:
    v = b.pick(lambda v: len(v.dims) >= 1 and _numeric(v))
    if v is None:
        return False
    zero = b.constant(v.dtype)
    parts, out = [], []
    for d in v.dims:
        lo, hi, interior = b.rng.randint(0, 2), b.rng.randint(0, 2), b.rng.choice((0, 0, 1))
        parts.append(f"{lo}_{hi}" + (f"_{interior}" if interior else ""))
        out.append(lo + hi + d + max(d - 1, 0) * interior)
    b.emit("pad", v.dtype, tuple(out), [v.name, zero.name], ["padding=" + "x".join(parts)])
    return True


def op_iota(b: _Builder) -> bool:
    dims = b.dims()
    if not dims:
        dims = (3,)
    b.emit("iota", b.rng.choice(("s32", "f32")), dims, [], [f"iota_dimension={b.rng.randrange(len(dims))}"])
    return True


def op_constant(b: _Builder) -> bool:
    dtype = b.rng.choice((*FLOATS, *INTS, "pred"))
    dims = b.dims(2)
    b.emit("constant", dtype, dims, [b.literal(dtype, dims)], [])
    return True


def op_reduce(b: _Builder) -> bool:
    v = b.pick(lambda v: len(v.dims) >= 1 and v.dtype in ("f32", "s32", "pred", "f64", "u32"))
    if v is None:
        return False
    # the init is the reduction's identity: XLA may apply it any number of times
    init = b.emit("constant", v.dtype, (), ["false" if v.dtype == "pred" else "0"], [])
    dims = sorted(b.rng.sample(range(len(v.dims)), b.rng.randint(1, len(v.dims))))
    out = tuple(d for i, d in enumerate(v.dims) if i not in dims)
    b.emit("reduce", v.dtype, out, [v.name, init.name],
           ["dimensions={" + ",".join(map(str, dims)) + "}", f"to_apply={b.pct}{b.add_computation(v.dtype)}"])
    return True


def op_map(b: _Builder) -> bool:
    v = b.pick(lambda v: v.dtype in ("f32", "s32"))
    if v is None:
        return False
    dims = "{" + ",".join(map(str, range(len(v.dims)))) + "}"
    b.emit("map", v.dtype, v.dims, [v.name, v.name], [f"dimensions={dims}", f"to_apply={b.pct}{b.add_computation(v.dtype)}"])
    return True


def op_dot(b: _Builder) -> bool:
    v = b.pick(lambda v: len(v.dims) == 2 and v.dtype in ("f32", "f64"))
    if v is None:
        return False
    b.emit("dot", v.dtype, (v.dims[0], v.dims[0]), [v.name, v.name],
           ["lhs_contracting_dims={1}", "rhs_contracting_dims={1}"])
    return True


def op_dynamic_slice(b: _Builder) -> bool:
    v = b.pick(lambda v: len(v.dims) >= 1)
    if v is None:
        return False
    starts = [b.constant("s32").name for _ in v.dims]
    sizes = [b.rng.randint(1, d) for d in v.dims]
    b.emit("dynamic-slice", v.dtype, tuple(sizes), [v.name, *starts],
           ["dynamic_slice_sizes={" + ",".join(map(str, sizes)) + "}"])
    return True


def op_clamp(b: _Builder) -> bool:
    v = b.pick(_numeric)
    if v is None:
        return False
    low = b.constant(v.dtype)
    b.emit("clamp", v.dtype, v.dims, [low.name, v.name, low.name], [])
    return True


def op_reduce_precision(b: _Builder) -> bool:
    v = b.pick(_is_float)
    if v is None:
        return False
    b.emit("reduce-precision", v.dtype, v.dims, [v.name], ["exponent_bits=5", "mantissa_bits=10"])
    return True


def op_tuple(b: _Builder) -> bool:
    v = b.pick()
    w = b.pick()
    if v is None or w is None:
        return False
    t = b.emit("tuple", "", (), [v.name, w.name], [],
               shape=f"({b.shape(v.dtype, v.dims, False)}, {b.shape(w.dtype, w.dims, False)})")
    b.values.remove(t)
    chosen = b.rng.choice((0, 1))
    pick = (v, w)[chosen]
    b.emit("get-tuple-element", pick.dtype, pick.dims, [t.name], [f"index={chosen}"])
    return True


def op_call(b: _Builder) -> bool:
    v = b.pick(_numeric)
    if v is None:
        return False
    p, shape = b.pct, b.shape(v.dtype, v.dims, False)
    callee = b.helper(f"negate_{v.dtype}_{'x'.join(map(str, v.dims))}", [
        f"{p}negate_{v.dtype}_{'x'.join(map(str, v.dims))} {{", f"  {p}x = {shape} parameter(0)",
        f"  ROOT {p}n = {shape} negate({p}x)", "}"])
    b.emit("call", v.dtype, v.dims, [v.name], [f"to_apply={p}{callee}"])
    return True


MENU = (op_unary, op_unary, op_binary, op_binary, op_compare_select, op_convert, op_broadcast, op_reshape,
        op_transpose, op_slice, op_reverse, op_concatenate, op_pad, op_iota, op_constant, op_reduce, op_map,
        op_dot, op_dynamic_slice, op_clamp, op_reduce_precision, op_tuple, op_call)


def generate(seed: int) -> Generated:
    """The module of `seed`: always the same text for the same seed."""
    rng = random.Random(seed)
    b = _Builder(rng)
    params = []
    for i in range(rng.randint(1, 3)):
        dtype = rng.choice(("f32", "f32", "s32", "f16", "bf16", "pred", "u8", "f64"))
        dims = b.dims()
        name = f"p{i}" if rng.random() < 0.5 else f"param.{i}"
        b.body.append((name, b.shape(dtype, dims), "parameter", [str(i)], []))
        value = Value(name, dtype, dims)
        b.values.append(value)
        params.append(value)
    for _ in range(rng.randint(3, 14)):
        for _attempt in range(5):
            if rng.choice(MENU)(b):
                break
    return _assemble(b, seed, params)


def _assemble(b: _Builder, seed: int, params: list[Value]) -> Generated:
    rng, p = b.rng, b.pct
    outs = [b.values[-1]] + rng.sample(b.values[:-1], min(len(b.values) - 1, rng.randint(0, 2)))
    header = f"HloModule gen_{seed}"
    if len(outs) > 1 and outs[1] in params and outs[1].dims and rng.random() < 0.5:
        header += f", input_output_alias={{ {{1}}: ({params.index(outs[1])}, {{}}, may-alias) }}"
    lines = [header, ""]
    for helper in b.helpers:
        lines += [*helper, ""]
    lines.append(f"ENTRY {p}main.{seed} {{")
    gen = Generated(lines, pct=p)
    for name, shape, opcode, operands, attrs in b.body:
        gen.insts.append(GenInst(len(lines) + 1, name, opcode, shape, list(operands), list(attrs)))
        lines.append("")
        lines[-1] = gen.render(gen.insts[-1])
    if len(outs) == 1:
        lines[-1] = lines[-1].replace(f"  {p}", f"  ROOT {p}", 1)
    else:
        shapes = ", ".join(b.shape(v.dtype, v.dims, False) for v in outs)
        gen.insts.append(GenInst(len(lines) + 1, "tuple.root", "tuple", f"({shapes})", [v.name for v in outs], []))
        lines.append("  ROOT ")
        lines[-1] = gen.render(gen.insts[-1])
    lines.append("}")
    return gen
