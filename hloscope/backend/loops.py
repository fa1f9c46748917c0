"""Counted loops in LLVM IR, in the one shape LLVM's loop vectorizer likes best.

`for (i = start; i < stop; i += 1)` with a single i64 induction variable (a phi), a header
that tests it and a body that ends in one latch. This is XLA's `ForLoop`
(xla/service/llvm_ir/for_loop.cc); loop nests are loops inside loop bodies.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator, Sequence

from llvmlite import ir

from .llvm_types import I64, no_signed_wrap


def as_i64(value) -> ir.Value:
    return value if isinstance(value, ir.Value) else I64(int(value))


@contextmanager
def for_range(b: ir.IRBuilder, start, stop, name: str = "i") -> Iterator[ir.Value]:
    """Emit `for (i = start; i < stop; ++i) { <body> }`; the with-block emits the body.

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
    b.branch(header)
    b.position_at_end(done)


@contextmanager
def loop_nest(b: ir.IRBuilder, bounds: Sequence[tuple], names: Sequence[str]) -> Iterator[list]:
    """Nested loops, outermost first; bounds are (start, stop) pairs. Yields the variables."""
    if not bounds:
        yield []
        return
    with for_range(b, bounds[0][0], bounds[0][1], names[0]) as i:
        with loop_nest(b, bounds[1:], names[1:]) as rest:
            yield [i, *rest]
