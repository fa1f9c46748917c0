"""Counted loops in LLVM IR, in the one shape LLVM's loop vectorizer likes best.

`for (i = start; i < stop; i += 1)` with a single i64 induction variable (a phi), a header
that tests it and a body that ends in one latch. This is XLA's `ForLoop`
(xla/service/llvm_ir/for_loop.cc); loop nests are loops inside loop bodies.

A loop may be told not to interleave (`interleave=False`: the latch carries
`llvm.loop.interleave.count` 1). Interleaving runs several vector iterations side by side,
which pays where each iteration waits on the one before: a sum's accumulator. Where
iterations are independent (an elementwise loop) the processor overlaps them anyway, and
where each element costs a long computation (an exp) that, not the accumulator, is the
bound; there the copies only make LLVM's work larger (softmax: ~1/3 of its LLVM time).

A loop may also fold its tail (`fold_tail=True`: `llvm.loop.vectorize.predicate.enable`):
the last, partial vector of elements runs masked, so the vectorizer makes one loop where it
would make three (the vector loop, a narrower vector epilogue and a scalar remainder), each
a copy of the body. That pays where the body is long and seldom run: the exact sine's loop
(huge_trig_loop.py) made half of exp-sin's LLVM time. The masks cost run time on every
iteration (gelu's loop folded ran 15-80% slower), so hot loops keep their remainders.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator, Sequence

from llvmlite import ir

from .llvm_types import I1, I32, I64, no_signed_wrap


def as_i64(value) -> ir.Value:
    return value if isinstance(value, ir.Value) else I64(int(value))


class LoopProperties(ir.values.MDValue):
    """A loop's ID: `distinct !{<itself>, <properties>...}`, the form LLVM reads loop hints
    in (llvmlite makes only uniqued metadata, which cannot name itself)."""

    def descr(self, buf):
        rest = "".join(f", {op.get_reference()}" for op in self.operands)
        buf += (f"distinct !{{ {self.get_reference()}{rest} }}", "\n")


def loop_hints(module: ir.Module, interleave: bool, fold_tail: bool) -> LoopProperties | None:
    """The loop ID carrying these hints (None: LLVM's defaults for both)."""
    hints = []
    if not interleave:
        hints.append(module.add_metadata([ir.MetaDataString(module, "llvm.loop.interleave.count"), I32(1)]))
    if fold_tail:
        hints.append(module.add_metadata([ir.MetaDataString(module, "llvm.loop.vectorize.predicate.enable"), I1(1)]))
    return LoopProperties(module, hints, name=str(len(module.metadata))) if hints else None


@contextmanager
def for_range(b: ir.IRBuilder, start, stop, name: str = "i", interleave: bool = True,
              fold_tail: bool = False) -> Iterator[ir.Value]:
    """Emit `for (i = start; i < stop; ++i) { <body> }`; the with-block emits the body.
    `interleave=False` asks LLVM's vectorizer for one vector iteration at a time, and
    `fold_tail=True` for masked last iterations instead of remainder loops (see above).

    On exit the builder is positioned after the loop.
    """
    start, stop = as_i64(start), as_i64(stop)
    preheader = b.block
    header = b.append_basic_block(f"{name}.header")
    body = b.append_basic_block(f"{name}.body")
    done = b.append_basic_block(f"{name}.exit")
    b.branch(header)
    b.position_at_end(header)
    i = b.phi(I64, name=name)
    i.add_incoming(start, preheader)
    b.cbranch(b.icmp_signed("<", i, stop), body, done)
    b.position_at_end(body)
    yield i
    following = no_signed_wrap(b, "add", i, I64(1), name=f"{name}.next")
    i.add_incoming(following, b.block)
    latch = b.branch(header)
    hints = loop_hints(b.module, interleave, fold_tail)
    if hints is not None:
        latch.set_metadata("llvm.loop", hints)
    b.position_at_end(done)


@contextmanager
def loop_nest(b: ir.IRBuilder, bounds: Sequence[tuple], names: Sequence[str], interleave: bool = True,
              fold_tail: bool = False) -> Iterator[list]:
    """Nested loops, outermost first; bounds are (start, stop) pairs. Yields the variables.
    `interleave` and `fold_tail` as in for_range, for every loop of the nest."""
    if not bounds:
        yield []
        return
    with for_range(b, bounds[0][0], bounds[0][1], names[0], interleave, fold_tail) as i:
        with loop_nest(b, bounds[1:], names[1:], interleave, fold_tail) as rest:
            yield [i, *rest]


LANES = 16  # elements of one AVX-512 f32 vector: a multiple of every target's vector width


@contextmanager
def for_whole_vectors(b: ir.IRBuilder, start, stop, name: str = "i") -> Iterator[ir.Value]:
    """`for (i = start; i < stop; ++i)` where start and stop are multiples of LANES: a loop over
    blocks of LANES elements around an inner loop of exactly LANES trips. The vectorizer makes
    the inner loop one vector body, with no vector epilogue and no scalar remainder (it cannot
    know that a kernel's [begin, end) holds whole vectors): a transcendental loop's body is
    compiled once instead of three times (gelu's and exp-sin's kernels: about a third of their
    LLVM time)."""
    start, stop = as_i64(start), as_i64(stop)
    with for_range(b, b.sdiv(start, I64(LANES)), b.sdiv(stop, I64(LANES)), f"{name}.block") as block:
        base = no_signed_wrap(b, "mul", block, I64(LANES))
        with for_range(b, 0, LANES, name, interleave=False) as lane:
            yield no_signed_wrap(b, "add", base, lane)
