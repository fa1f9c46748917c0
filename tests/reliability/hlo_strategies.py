"""Hypothesis strategies for random, verifier-clean HLO modules (built with the builder).

    @given(hlo_cases())
    def test_something(case):
        case.module             # a verified HloModule
        case.arguments()        # numpy arguments for its ENTRY, reproducible from case.seed

A module is a random walk over the supported opcodes: each step takes a value already made
(or a fresh parameter, constant or iota) and applies one operation to it; operands of the
right shape are taken from the values made so far or made on the spot. Shapes stay small
(rank <= 3, dims <= 4; broadcast may add a 4th dimension; at most a few hundred elements)
so the evaluator is fast. The ROOT is
one value or a tuple of several, and some values are left unused for DCE to find.

Evaluator-undefined regions are avoided by construction rather than filtered out: the input
of log, sqrt, rsqrt, log-plus-one and power's base goes through `abs(x) + 1` first. Integer
corner cases (x / 0, INT_MIN / -1, shifts past the bit width, wrap-around) are kept: XLA
defines them. Floats may still overflow to inf and make NaN (exp of exp...): comparisons treat
NaN as equal to NaN (see fuzz_values.assert_same).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from fuzz_values import random_arguments, random_array
from hypothesis import strategies as st
from random_ops import DTYPES, MAX_DIM, MAX_RANK, STEPS, special_values

from hloscope.ir.builder import ModuleBuilder
from hloscope.ir.instruction import Instruction
from hloscope.ir.module import HloModule
from hloscope.ir.shape import ArrayShape


@dataclass
class Case:
    """One generated module and the seed of its arguments."""

    module: HloModule
    seed: int

    def arguments(self) -> list[np.ndarray]:
        return random_arguments(self.module, self.seed)

    def __repr__(self) -> str:
        return f"Case(seed={self.seed}, module=\n{self.module.to_text()})"

    def _repr_pretty_(self, printer, cycle) -> None:
        """What hypothesis prints for a falsifying example: the module as HLO text."""
        printer.text(repr(self))


class _Walk:
    """The state of one random walk: the builder and the values made so far."""

    def __init__(self, draw, seed: int, smooth: bool):
        self.draw = draw
        self.smooth = smooth  # no float operation whose result jumps (floor, compare, ...)
        self.rng = np.random.default_rng(seed)
        self.mb = ModuleBuilder("fuzz")
        self.cb = self.mb.computation("main")
        self.pool: list[Instruction] = []
        self.params = 0

    # ---- drawing ----
    def pick(self, options):
        return self.draw(st.sampled_from(list(options)))

    def integer(self, lo: int, hi: int) -> int:
        return self.draw(st.integers(lo, hi))

    def dims(self, max_rank: int = MAX_RANK) -> tuple[int, ...]:
        """A random shape; now and then with a zero-sized dimension (an empty array)."""
        rank = self.integer(0, max_rank)
        smallest = 0 if self.draw(st.integers(0, 9)) == 0 else 1
        return tuple(self.integer(smallest, MAX_DIM) for _ in range(rank))

    # ---- making values ----
    def add(self, inst: Instruction) -> Instruction:
        if inst.shape.is_array:
            self.pool.append(inst)
        return inst

    def leaf(self, dtype: str, dims: tuple[int, ...]) -> Instruction:
        """A fresh parameter, constant or iota of this shape."""
        how = self.pick(["parameter", "parameter", "constant", "iota"] if dims else ["parameter", "constant"])
        shape = ArrayShape(dtype, dims)
        if how == "parameter" and self.params < 6:
            self.params += 1
            return self.add(self.cb.parameter(shape))
        if how == "iota" and dtype != "pred":
            return self.add(self.cb.iota(shape, self.integer(0, len(dims) - 1)))
        return self.add(self.cb.constant(random_array(self.rng, dtype, dims), dtype))

    def like(self, dtype: str, dims: tuple[int, ...]) -> Instruction:
        """A value of this shape: one made before, a new leaf, or a splat of a value that
        algebraic simplification looks for (0, 1, 2, the type's extremes)."""
        same = [v for v in self.pool if v.shape.dtype == dtype and v.shape.dims == dims]
        how = self.pick(["before", "before", "leaf", "special"] if same else ["leaf", "leaf", "special"])
        if how == "before":
            return self.pick(same)
        if how == "special":
            return self.add(self.splat(dtype, dims, self.pick(special_values(dtype))))
        return self.leaf(dtype, dims)

    def scalar_constant(self, dtype: str, value) -> Instruction:
        return self.cb.constant(np.asarray(value).astype(ArrayShape(dtype, ()).numpy_dtype), dtype)

    def splat(self, dtype: str, dims: tuple[int, ...], value) -> Instruction:
        return self.cb.broadcast(self.scalar_constant(dtype, value), dims, ())

    def positive(self, x: Instruction) -> Instruction:
        """abs(x) + 1: keeps log, sqrt, rsqrt and power's base out of their NaN regions."""
        s = x.shape
        return self.cb.add(self.cb.abs(x), self.splat(s.dtype, s.dims, 1))

    # ---- the walk ----
    def step(self) -> None:
        x = self.pick(self.pool)
        made = self.pick(STEPS)(self, x)
        if made is not None:
            self.add(made)

    def finish(self) -> HloModule:
        """ROOT: the last value, or a tuple of it and a few others; the rest may be dead."""
        last = self.pool[-1]
        if self.draw(st.booleans()):
            others = self.draw(st.lists(st.sampled_from(self.pool), max_size=2))
            last = self.cb.tuple(last, *others)
        return self.mb.build(self.cb.build(last))


@st.composite
def hlo_cases(draw, max_steps: int = 10, smooth: bool = False) -> Case:
    """A random verified module of 1..max_steps operations, and the seed of its arguments.

    smooth=True leaves out the float operations whose result jumps at some input (floor,
    ceil, round, sign, is-finite, compare and remainder of floats, float -> int or pred
    conversions): after them an ulp of difference upstream can become any difference, so a
    comparison with a tolerance (a native backend against the evaluator) needs them out.
    """
    seed = draw(st.integers(0, 2**32 - 1))
    walk = _Walk(draw, seed, smooth)
    walk.leaf(walk.pick(DTYPES), walk.dims())
    for _ in range(draw(st.integers(1, max_steps))):
        walk.step()
    return Case(walk.finish(), seed)
