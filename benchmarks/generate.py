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
