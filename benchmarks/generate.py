"""Synthetic HLO modules of any size, in XLA's text syntax, for benchmarks.

`make_chain_module(n)` writes a module of exactly `n` instructions that looks like what JAX
hands XLA for a long elementwise program: `%` names, `metadata={...}` on every instruction,
scalar constants broadcast to the working shape, a row vector broadcast along dimension 1,
and now and then a row reduction (over a small `add` computation) broadcast back and
subtracted. Every value feeds the next, so the whole module is one long dependency chain.

    from generate import make_chain_module      # from a script in benchmarks/
    text = make_chain_module(10_000)
"""

from __future__ import annotations

ROWS, COLS = 64, 128
FULL = f"f32[{ROWS},{COLS}]{{1,0}}"
ROW = f"f32[{ROWS}]{{0}}"
VEC = f"f32[{COLS}]{{0}}"
SCALAR = "f32[]"
UNARY = ("tanh", "negate", "abs", "sine", "logistic")  # bounded: no inf/nan if evaluated
REDUCE_EVERY = 50  # one reduction step per this many chain steps

_ADD_REGION = """%region_add (lhs: f32[], rhs: f32[]) -> f32[] {
  %lhs = f32[] parameter(0), metadata={op_name="reduce_sum"}
  %rhs = f32[] parameter(1), metadata={op_name="reduce_sum"}
  ROOT %sum = f32[] add(%lhs, %rhs), metadata={op_name="jit(chain)/reduce_sum"}
}
"""
_REGION_SIZE = 3


class _Writer:
    """Appends instructions to the ENTRY body, numbering names XLA-style (`opcode.N`)."""

    def __init__(self):
        self.lines: list[str] = []
        self.count = 0

    def emit(self, shape: str, opcode: str, operands: str, attrs: str = "", op: str = "") -> str:
        self.count += 1
        name = f"%{op}" if opcode == "parameter" else f"%{opcode}.{self.count}"
        meta = (
            f'metadata={{op_name="jit(chain)/{op or opcode}" '
            f'source_file="chain.py" source_line={self.count}}}'
        )
        tail = f", {attrs}" if attrs else ""
        self.lines.append(f"  {name} = {shape} {opcode}({operands}){tail}, {meta}")
        return name


def _scale_step(w: _Writer, cur: str, bias: str, i: int) -> str:
    """unary(cur * broadcast(constant) + broadcast(bias row)): 6 instructions."""
    c = w.emit(SCALAR, "constant", f"{0.5 + (i % 7) * 0.125}")
    b = w.emit(FULL, "broadcast", c, "dimensions={}", op="mul")
    m = w.emit(FULL, "multiply", f"{cur}, {b}", op="mul")
    v = w.emit(FULL, "broadcast", bias, "dimensions={1}", op="add")
    a = w.emit(FULL, "add", f"{m}, {v}")
    return w.emit(FULL, UNARY[i % len(UNARY)], a)


def _reduce_step(w: _Writer, cur: str) -> str:
    """cur - broadcast(reduce_sum(cur, axis=1)): 4 instructions."""
    zero = w.emit(SCALAR, "constant", "0")
    r = w.emit(ROW, "reduce", f"{cur}, {zero}", "dimensions={1}, to_apply=%region_add")
    b = w.emit(FULL, "broadcast", r, "dimensions={0}", op="sub")
    return w.emit(FULL, "subtract", f"{cur}, {b}")


def _bare(shape: str) -> str:
    return shape.split("{")[0]


def make_chain_module(n_instructions: int) -> str:
    """HLO text of a module with exactly `n_instructions` instructions (at least 8)."""
    if n_instructions < 8:
        raise ValueError("make_chain_module needs at least 8 instructions")
    w = _Writer()
    budget = n_instructions - _REGION_SIZE - 1  # keep one for the ROOT
    cur = w.emit(FULL, "parameter", "0", op="x")
    bias = w.emit(VEC, "parameter", "1", op="b")
    step = 0
    while budget - w.count >= 6:
        if step % REDUCE_EVERY == REDUCE_EVERY - 1:
            cur = _reduce_step(w, cur)
        else:
            cur = _scale_step(w, cur, bias, step)
        step += 1
    while w.count < budget:  # fill the last few slots with unary ops
        cur = w.emit(FULL, UNARY[w.count % len(UNARY)], cur)
    w.emit(FULL, "tanh", cur)
    w.lines[-1] = w.lines[-1].replace("  %", "  ROOT %", 1)
    header = f"HloModule chain_{n_instructions}, entry_computation_layout={{({FULL}, {VEC})->{FULL}}}\n\n"
    sig = f"(x: {_bare(FULL)}, b: {_bare(VEC)}) -> {_bare(FULL)}"  # no layouts, as XLA prints it
    entry = f"ENTRY %main {sig} {{\n" + "\n".join(w.lines) + "\n}\n"
    return header + _ADD_REGION + "\n" + entry


# ---- a branchy module: fan-out, diamonds, skip connections, dots, reshapes, slices ----

HIDDEN = f"f32[{COLS},{COLS}]{{1,0}}"
HALF = f"f32[{ROWS // 2},{COLS}]{{1,0}}"
FLAT = f"f32[{ROWS * COLS}]{{0}}"
TRANSPOSED = f"f32[{COLS},{ROWS}]{{0,1}}"
LAYER_SIZE = 26  # instructions per _branchy_layer


def _branchy_layer(w: _Writer, cur: str, skip: str, weight: str, bias: str, i: int) -> str:
    """One layer, shaped like a transformer block's plumbing rather than a chain: the input
    feeds three branches (fan-out) that meet again (diamonds), a row reduction is broadcast
    back, a matmul with a shared weight, a transpose and reshape round trip, a split and
    concatenate, and a skip connection from two layers back (long live ranges)."""
    c = w.emit(SCALAR, "constant", f"{0.25 + (i % 5) * 0.125}")
    scale = w.emit(FULL, "broadcast", c, "dimensions={}")
    a = w.emit(FULL, "multiply", f"{cur}, {scale}")
    b = w.emit(FULL, UNARY[i % len(UNARY)], cur)
    n = w.emit(FULL, "negate", cur)
    d = w.emit(FULL, "add", f"{a}, {b}")
    e = w.emit(FULL, "maximum", f"{n}, {d}")
    zero = w.emit(SCALAR, "constant", "0")
    r = w.emit(ROW, "reduce", f"{e}, {zero}", "dimensions={1}, to_apply=%region_add")
    rb = w.emit(FULL, "broadcast", r, "dimensions={0}")
    s = w.emit(FULL, "subtract", f"{e}, {rb}")
    m = w.emit(FULL, "dot", f"{s}, {weight}", "lhs_contracting_dims={1}, rhs_contracting_dims={0}")
    vb = w.emit(FULL, "broadcast", bias, "dimensions={1}")
    h = w.emit(FULL, "add", f"{m}, {vb}")
    t = w.emit(TRANSPOSED, "transpose", h, "dimensions={1,0}")
    tt = w.emit(FULL, "transpose", t, "dimensions={1,0}")
    f = w.emit(FLAT, "reshape", tt)
    g = w.emit(FULL, "reshape", f)
    top = w.emit(HALF, "slice", g, f"slice={{[0:{ROWS // 2}], [0:{COLS}]}}")
    bottom = w.emit(HALF, "slice", g, f"slice={{[{ROWS // 2}:{ROWS}], [0:{COLS}]}}")
    top2 = w.emit(HALF, "tanh", top)
    joined = w.emit(FULL, "concatenate", f"{bottom}, {top2}", "dimensions={0}")
    res = w.emit(FULL, "add", f"{joined}, {skip}")
    half_c = w.emit(SCALAR, "constant", "0.5")
    half = w.emit(FULL, "broadcast", half_c, "dimensions={}")
    return w.emit(FULL, "multiply", f"{res}, {half}")


def make_branchy_module(n_instructions: int) -> str:
    """HLO text of a branchy module of about `n_instructions` instructions (at least 40):
    layers of `_branchy_layer`, with a tuple ROOT of the last value and two earlier ones."""
    if n_instructions < 40:
        raise ValueError("make_branchy_module needs at least 40 instructions")
    w = _Writer()
    cur = w.emit(FULL, "parameter", "0", op="x")
    bias = w.emit(VEC, "parameter", "1", op="b")
    weight = w.emit(HIDDEN, "parameter", "2", op="w")
    history = [cur, cur]
    layers = max(1, (n_instructions - _REGION_SIZE - 4) // LAYER_SIZE)
    for i in range(layers):
        cur = _branchy_layer(w, cur, history[-2], weight, bias, i)
        history.append(cur)
    outs = [history[-1], history[len(history) // 2], history[len(history) // 3]]
    root = f"({FULL}, {FULL}, {FULL})"
    w.emit(root, "tuple", ", ".join(outs))
    w.lines[-1] = w.lines[-1].replace("  %", "  ROOT %", 1)
    layout = f"({FULL}, {VEC}, {HIDDEN})->{root}"
    header = f"HloModule branchy_{n_instructions}, entry_computation_layout={{{layout}}}\n\n"
    sig = f"(x: {_bare(FULL)}, b: {_bare(VEC)}, w: {_bare(HIDDEN)}) -> ({', '.join([_bare(FULL)] * 3)})"
    entry = f"ENTRY %main {sig} {{\n" + "\n".join(w.lines) + "\n}\n"
    return header + _ADD_REGION + "\n" + entry
