"""Row chains: consecutive row-wise kernels run block by block, while the rows are in cache.

Softmax is three kernels over the same rows: the max of each row, exp(x - max) and its sum,
then the division. Run one after another over a 16 MB input, each kernel streams the whole
array from memory: x is read twice and the exp written, then read back. Yet row r of every
kernel needs only row r of what the kernels before it wrote. So the CPU runs such a run of
kernels a block of rows at a time, every kernel of the chain on the block before the next
block starts: the block (a few hundred KB) is still in the core's cache when the next kernel
reads it, and x comes from memory once. (XLA:CPU hands softmax whole to YNNPACK, whose
kernels work a row at a time; XLA:GPU's softmax rewriter makes it one row-wise kernel.)

    for each partition [begin, end) of the rows:            (threads, as for any kernel)
        for each block [lo, hi) of B rows in it:
            kernel_1(..., lo, hi); kernel_2(..., lo, hi); ...

A kernel may join the chain when its [begin, end) range means rows of dimension 0 (a loop
nest's outer loop, a flat loop's linear range scaled by the row length, or a row-kept
reduction's outer loop), and:
  - what it reads of an array a kernel of the chain writes, it reads only at the row it is
    computing (elementwise, broadcast or reduce paths that keep dimension 0: `row_access`);
  - no array written in the chain shares memory with another it touches unless both are the
    same buffer read and written by rows (an in-place update);
  - it reads an array an earlier kernel writes, or one the chain already reads.
Each kernel stays its own function (the IR and the report show it as before, with a note);
the chain is a small function calling them, which the entry runs over the partitions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import gcd, lcm
from typing import Callable

from llvmlite import ir

from ....ir.computation import Computation
from ....ir.instruction import Instruction
from ....ir.opcodes import OPCODES
from ....ir.shape import ArrayShape
from ...buffers import ArrayStorage, leaves
from ...index import is_default_physical
from ...kernel_spec import location
from ...llvm_types import I64, PTR, VOID
from ...loop_function import LoopKernel
from ...loops import for_range
from ..step_clock import StepClock

CHAIN_KINDS = ("loop", "reduce", "library-reduce")
# At most this many kernels in one chain: a block holds a row of every array of the chain, so
# a longer one would shrink the block to a few rows; it also keeps checking a kernel against
# the chain it joins a bounded amount of work (a 20,000-instruction module's lowering stays linear).
MAX_KERNELS = 8
# Rows per block: the chain's arrays' rows in about this many bytes. On softmax and layernorm
# (4096 x 1024 f32) 24-128 KB ran best, 512 KB and more up to 40% slower: the block should
# stay near the 48 KB first-level cache, not merely in the 2 MB second.
BLOCK_BYTES = 64 * 1024
ROW = "row"  # a parameter read only at the row being computed
ANY = "any"  # read at other positions too (or at no particular row: a broadcast vector)


@dataclass
class ChainMember:
    """A kernel that can be part of a chain: its rows and how it touches its buffers."""

    kernel: LoopKernel
    rows: int  # the row count E: its [begin, end) ranges over [0, E * scale)
    scale: int  # elements of its range per row (1, or the row length of a flat loop)
    reads: dict[ArrayStorage, str]  # ROW or ANY, by input buffer
    writes: list[ArrayStorage]


@dataclass
class Chain:
    members: list[ChainMember] = field(default_factory=list)

    @property
    def rows(self) -> int:
        return self.members[0].rows

    def written(self) -> set[ArrayStorage]:
        return {b for m in self.members for b in m.writes}

    def touched(self) -> set[ArrayStorage]:
        return {b for m in self.members for b in (*m.reads, *m.writes)}


def member_of(kernel: LoopKernel) -> ChainMember | None:
    """The kernel as a chain member, or None when its range does not mean rows."""
    spec = kernel.spec
    if spec is None or kernel.kind not in CHAIN_KINDS or kernel.extent < 2:
        return None
    comp = spec.comp
    outs = leaves(comp.root_instruction.shape)
    if not outs or not all(isinstance(s, ArrayShape) and s.rank and is_default_physical(s) for s in outs):
        return None
    rows = outs[0].dims[0]
    if rows < 2 or any(s.dims[0] != rows for s in outs):
        return None
    scale = _range_scale(kernel, comp, rows)
    if scale is None:
        return None
    access = row_access(comp, rows)
    if access is None:
        return None
    reads: dict[ArrayStorage, str] = {}
    for number, buf in enumerate(spec.inputs):
        how = access.get(number, ROW)  # an unused parameter reads nothing
        reads[buf] = ANY if ANY in (reads.get(buf), how) else how
    return ChainMember(kernel, rows, scale, reads, list(spec.outputs))


def _range_scale(kernel: LoopKernel, comp: Computation, rows: int) -> int | None:
    """Elements of the kernel's [begin, end) range per row of dimension 0, if it means rows."""
    root = comp.root_instruction
    if kernel.kind in ("reduce", "library-reduce"):
        heroes = [i for i in comp.instructions if i.opcode == "reduce"]
        for hero in heroes:
            source = comp[hero.operands[0]].array_shape
            if 0 in hero.attr("dimensions") or source.dims[0] != rows or not is_default_physical(source):
                return None
        return 1 if kernel.extent == rows else None
    shape = leaves(root.shape)[0]
    if kernel.extent == rows:
        return 1  # a loop nest whose outer loop is dimension 0 (default layout, rows > 1)
    if kernel.extent == shape.size and shape.size % rows == 0:
        return shape.size // rows  # a flat loop over the linear index: a row is this many elements
    return None


def row_access(comp: Computation, rows: int) -> dict[int, str] | None:
    """How computing rows of comp's root reads each parameter (by number): ROW when only the
    row being computed (dimension 0 of the parameter, which has `rows` rows), ANY otherwise.
    None when the root is not computed row by row."""
    access: dict[int, str] = {}
    seen: dict[str, int | None] = {}  # instruction -> the dimension that is the row (None: no single one)
    todo: list[tuple[str, int | None]] = [(comp.root, 0)]
    while todo:
        name, dim = todo.pop()
        if name in seen:
            if seen[name] == dim:
                continue
            dim = None  # reached along two paths that disagree
        seen[name] = dim
        inst = comp[name]
        if inst.opcode == "parameter":
            number = inst.parameter_number
            assert number is not None, "a verified parameter has a number"
            shape = inst.shape
            is_row = (dim == 0 and isinstance(shape, ArrayShape) and shape.rank > 0
                      and shape.dims[0] == rows and is_default_physical(shape))
            if not is_row or access.get(number) == ANY:
                access[number] = ANY
            else:
                access[number] = ROW
            continue
        todo.extend(_operand_dims(comp, inst, dim))
    return access


def _operand_dims(comp: Computation, inst: Instruction, dim: int | None) -> list[tuple[str, int | None]]:
    """Which dimension of each operand is the row, given that `dim` of inst is."""
    op = inst.opcode
    ops = list(inst.operands)
    if dim is None:
        return [(o, None) for o in ops]
    if op == "tuple":
        return [(o, dim) for o in ops]
    if op == "broadcast":
        kept = list(inst.attr("dimensions"))
        return [(ops[0], kept.index(dim) if dim in kept else None)]
    if op == "reduce":
        n = len(ops) // 2
        reduced = set(inst.attr("dimensions"))
        source = comp[ops[0]].array_shape
        kept = [d for d in range(source.rank) if d not in reduced]
        rows: list[tuple[str, int | None]] = [(o, kept[dim]) for o in ops[:n]]
        return rows + [(o, None) for o in ops[n:]]  # the initial values: the same at every row
    if op in ("reshape", "bitcast") and dim == 0:
        source, shape = comp[ops[0]].shape, inst.shape
        if (isinstance(source, ArrayShape) and isinstance(shape, ArrayShape) and source.rank and shape.rank
                and source.dims[0] == shape.dims[0] and is_default_physical(source) and is_default_physical(shape)):
            return [(ops[0], 0)]
        return [(ops[0], None)]
    row = OPCODES.get(op)
    if row is not None and row.elementwise:
        rank = inst.array_shape.rank
        return [(o, dim if comp[o].array_shape.rank == rank else None) for o in ops]
    if op in ("constant", "iota"):
        return []
    return [(o, None) for o in ops]


def _joins(chain: Chain, m: ChainMember) -> bool:
    """Can m run block by block after the chain's kernels (see the module docstring)?"""
    if m.rows != chain.rows:
        return False
    written = chain.written()
    touched = chain.touched()
    if not any(b in written or b in touched for b in m.reads):
        return False  # nothing to gain: it shares no rows with the chain
    everyone = [*chain.members, m]
    for reader in everyone:  # what is written in the chain is read only by rows
        for buf, how in reader.reads.items():
            if how == ANY and any(buf.overlaps(w) or location(buf) == location(w) for w in written | set(m.writes)):
                return False
    mine = set(m.reads) | set(m.writes)
    for w in set(m.writes) | written:  # what is written shares memory only with itself, row for row
        for other in mine | touched:
            same_place = location(other) == location(w)
            if other != w and ((same_place and other.size != w.size) or (not same_place and other.overlaps(w))):
                return False
    return True


def find_chains(steps: list) -> list[list[ChainMember]]:
    """Maximal runs of consecutive kernels among a program's steps that chain, of two
    kernels or more (any other step, a while loop say, ends a run)."""
    chains: list[list[ChainMember]] = []
    current = Chain()
    for step in steps:
        m = member_of(step) if isinstance(step, LoopKernel) else None
        if m is not None and 0 < len(current.members) < MAX_KERNELS and _joins(current, m):
            current.members.append(m)
            continue
        if len(current.members) > 1:
            chains.append(current.members)
        current = Chain([m] if m is not None else [])
    if len(current.members) > 1:
        chains.append(current.members)
    return chains


def chain_rows(steps: list, emit: Callable[[list[ChainMember]], LoopKernel]) -> list:
    """The steps with each chain's kernels replaced by the chain `emit` makes of them."""
    first = {id(c[0].kernel): c for c in find_chains(steps)}
    inside = {id(m.kernel) for c in first.values() for m in c[1:]}
    return [emit(first[id(s)]) if id(s) in first else s for s in steps if id(s) not in inside]


def block_rows(members: list[ChainMember]) -> int:
    """Rows per block: the chain's rows of all its arrays fill about BLOCK_BYTES, in a whole
    number of each member's steps (row_step)."""
    rows = members[0].rows
    distinct = {location(b): b.size // rows for m in members for b in (*m.reads, *m.writes)
                if b in m.writes or m.reads[b] == ROW}
    per_row = max(1, sum(distinct.values()))
    step = row_step(members)
    block = max(1, min(members[0].rows, BLOCK_BYTES // per_row))
    return -(-block // step) * step


def row_step(members: list[ChainMember]) -> int:
    """The rows every block boundary must be a multiple of: a member whose loop runs over
    whole vectors (LoopKernel.step elements) at `scale` elements per row needs
    step / gcd(step, scale) rows (a row value per row, as layer norm's rsqrt: 16 rows)."""
    need = 1
    for m in members:
        need = lcm(need, m.kernel.step // gcd(m.kernel.step, m.scale))
    return need


def emit_chain(llmod: ir.Module, name: str, members: list[ChainMember], clock: StepClock | None = None) -> LoopKernel:
    """The chain's function `void name(ptr buffers..., i64 begin, i64 end)` over rows (with
    each member's calls timed, where a profiling variant has a clock: step_clock.py)."""
    buffers: list[ArrayStorage] = []
    for m in members:
        for buf in m.kernel.buffers:
            if all(location(buf) != location(b) for b in buffers):
                buffers.append(buf)
    fn = ir.Function(llmod, ir.FunctionType(VOID, [PTR] * len(buffers) + [I64, I64]), name)
    fn.attributes.add("nounwind")
    fn.attributes.add("noinline")
    args = {location(buf): arg for buf, arg in zip(buffers, fn.args)}
    begin, end = fn.args[-2], fn.args[-1]
    begin.name, end.name = "begin", "end"
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    block = block_rows(members)
    count = b.udiv(b.add(b.sub(end, begin), I64(block - 1)), I64(block), name="blocks")
    with for_range(b, 0, count, "block") as k:
        lo = b.add(begin, b.mul(k, I64(block)), name="lo")
        hi = b.add(lo, I64(block))
        hi = b.select(b.icmp_signed("<", hi, end), hi, end, name="hi")
        for m in members:
            assert m.kernel.function is not None, "a chain member is an emitted kernel"
            pointers = [args[location(buf)] for buf in m.kernel.buffers]
            scale = I64(m.scale)
            started = clock.start(b) if clock is not None else None
            b.call(m.kernel.function, [*pointers, b.mul(lo, scale), b.mul(hi, scale)])
            if clock is not None and started is not None:
                clock.stop_member(b, started, m.kernel)
    b.ret_void()
    work = sum(m.kernel.work for m in members)
    chain = LoopKernel(name, members[0].kernel.instruction, "row-chain", buffers, extent=members[0].rows,
                       granule=row_step(members), work=work, function=fn)
    names = ", ".join(m.kernel.name for m in members)
    for m in members:
        m.kernel.notes.append(f"runs in blocks of {block} rows with the other kernels of row chain {name} "
                              f"({names}): each block is still in cache for the next kernel")
    return chain
