"""A flat loop with sin/cos/tan that pays for the exact reduction only where it is needed.

Cody-Waite reduction modulo pi/2 is cheap and accurate for |x| up to about 16384 (f32) or
5e5 (f64); beyond that only the integer Payne-Hanek reduction is (mathlib/payne_hanek.py),
and computing it on every lane slows a common loop like exp(-x*x)*2 + sin(x) - 1 by a
third. So the loop runs the Cody-Waite-only functions and also finds whether any argument is beyond
their range; if one is, it computes every element again with the exact functions. That
costs a compare and an `or` per vector in the common case.

When an output shares its buffer with an input (an in-place elementwise op), recomputing
after storing would read overwritten inputs, so such a loop runs in blocks of BLOCK
elements instead; for each block:

    check:  any(|trig argument| beyond Cody-Waite) over the block: only the arguments are
            computed (LLVM deletes the rest, nothing is stored), and the block's inputs are
            in cache afterwards
    fast:   if none, the elements with Cody-Waite-only sin/cos/tan (vectorized, as before)
    exact:  else the elements with the exact functions (still branchless and vectorized)

There the decision comes before anything is stored. Used by CPU flat loops; every other
loop, and the GPU, always calls the exact functions.

Where the kernel's maker can (loop_kernel.py: `kf.exact_loop`), the exact loop is a function
of its own, `<kernel>.exact(buffers..., begin, end)`, which the kernel calls: its
Payne-Hanek code is about half of the kernel's LLVM time, and as a function with external
linkage it can go to another LLVM part, compiled on another core (llvm_split.py).
"""

from __future__ import annotations

from llvmlite import ir

from .index import Index
from .kernel_io import store_leaves
from .llvm_types import I1, I64, emitted
from .loops import LANES, as_i64, for_range, for_whole_vectors

BLOCK = 1024  # elements: a block's f32 inputs stay in L1 between the check and the work
TRIG = {"sine", "cosine", "tan"}


def has_trig(comp) -> bool:
    return any(inst.opcode in TRIG for inst in comp.instructions)


def emit_trig_loop(em, kf, root: str, shape, begin, end, outputs) -> None:
    """The flat loop over [begin, end) of a computation with sin/cos/tan in it."""
    if getattr(kf, "in_place", True):
        emit_blocked_loop(em, kf, root, shape, begin, end, outputs)
    else:
        emit_fast_then_fix(em, kf, root, shape, begin, end, outputs)


def emit_fast_then_fix(em, kf, root: str, shape, begin, end, outputs) -> None:
    """The fast loop, collecting whether any argument was huge; if so, every element again
    with the exact functions. Only where no output is an input: the loop stores before it
    knows."""
    b: ir.IRBuilder = em.b
    scalar = em.ctx.scalar
    found = em.ctx.alloca(I1, "huge_trig")
    b.store(I1(0), found)
    scalar.huge_trig = []
    loop = for_whole_vectors(b, begin, end, "fast") if shape.size % LANES == 0 else \
        for_range(b, begin, end, "fast", interleave=False)  # [begin, end) whole vectors: loop_kernel.py
    with loop as i:
        index = Index(shape, linear=i)
        store_leaves(em, kf, em.value(root, index), index, outputs)
        if scalar.huge_trig:
            b.store(_any(b, [b.load(found), *scalar.huge_trig]), found)
        scalar.huge_trig = []
    scalar.huge_trig = None
    exact_fn = _exact_function(kf, root, shape, outputs)
    with b.if_then(b.load(found)):
        _exact(em, kf, exact_fn, root, shape, begin, end, outputs)


def emit_blocked_loop(em, kf, root: str, shape, begin, end, outputs) -> None:
    """for each block of [begin, end): check, then the fast or the exact loop (see above)."""
    b: ir.IRBuilder = em.b
    scalar = em.ctx.scalar
    begin, end = as_i64(begin), as_i64(end)
    count = b.sub(end, begin)
    blocks = b.sdiv(b.add(count, I64(BLOCK - 1)), I64(BLOCK))
    found = em.ctx.alloca(I1, "huge_trig")
    exact_fn = _exact_function(kf, root, shape, outputs)
    with for_range(b, 0, blocks, "blk") as blk:
        start = b.add(begin, b.mul(blk, I64(BLOCK)))
        stop = b.add(start, I64(BLOCK))
        stop = b.select(b.icmp_signed("<", stop, end), stop, end)
        b.store(I1(0), found)
        scalar.huge_trig = []
        with for_range(b, start, stop, "chk", interleave=False) as i:
            em.value(root, Index(shape, linear=i))  # only the flags are used; the rest is dead
            flags = scalar.huge_trig
            if flags:
                b.store(_any(b, [b.load(found), *flags]), found)
            scalar.huge_trig = []
        huge = b.load(found)
        with b.if_else(huge) as (exact, fast):
            with exact:
                scalar.huge_trig = None
                _exact(em, kf, exact_fn, root, shape, start, stop, outputs)
            with fast:
                scalar.huge_trig = []  # the flags it collects are unused: this block has none
                _element_loop(em, kf, root, shape, start, stop, outputs, "fast")
        scalar.huge_trig = None


def emit_exact_loop(em, kf, root: str, shape, begin, end, outputs) -> None:
    """The elements of [begin, end) with the exact sin/cos/tan (the body of `<kernel>.exact`)."""
    em.ctx.scalar.huge_trig = None
    _element_loop(em, kf, root, shape, begin, end, outputs, "exact")


def _exact_function(kf, root: str, shape, outputs) -> ir.Function | None:
    make = getattr(kf, "exact_loop", None)
    return make(root, shape, outputs) if make is not None else None


def _exact(em, kf, exact_fn: ir.Function | None, root: str, shape, start, stop, outputs) -> None:
    """The exact loop over [start, stop): a call of `<kernel>.exact`, or inline."""
    if exact_fn is None:
        _element_loop(em, kf, root, shape, start, stop, outputs, "exact")
    else:
        em.b.call(exact_fn, [*kf.fn.args[:-2], as_i64(start), as_i64(stop)])


def _element_loop(em, kf, root, shape, start, stop, outputs, name: str) -> None:
    # The exact functions are long (Payne-Hanek's integer products): their loop makes one
    # vector body, not three copies (about half the kernel's LLVM time): over whole vectors
    # where every range is whole vectors (see the fast loop), else folding its tail. The fast
    # loop keeps its remainder loops then: there the masks cost run time.
    if shape.size % LANES == 0:
        loop = for_whole_vectors(em.b, start, stop, name)
    else:
        loop = for_range(em.b, start, stop, name, interleave=False, fold_tail=name == "exact")
    with loop as i:
        index = Index(shape, linear=i)
        store_leaves(em, kf, em.value(root, index), index, outputs)


def _any(b: ir.IRBuilder, flags: list) -> ir.Value:
    result = flags[0]
    for flag in flags[1:]:
        result = emitted(b.or_(result, flag))
    return result
