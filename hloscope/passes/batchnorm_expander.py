"""batchnorm_expander: batch-norm-training, -inference and -grad as the plain HLO they stand
for (XLA's BatchNormExpander, xla/service/batchnorm_expander.cc).

No code generator has a kernel for the three batch-norm opcodes: XLA expands them early in
both its CPU and GPU pipelines, before simplification, so that algsimp, CSE and fusion see
ordinary arithmetic, and hloscope's targets do the same (Target.required_passes). Each
statistic is taken over every dimension except `feature_index`, so there is one value per
feature, and N is the number of elements per feature. The formulas are XLA's, computed in
the operand's own type (f16 and bf16 too):

    training   mean = E[x] = sum(x) / N      var = E[x^2] - E[x]^2   (one pass over x, XLA's form)
               y = (x - mean) * rsqrt(var + eps) * scale + offset       -> tuple(y, mean, var)
    inference  k = scale * rsqrt(var + eps)      y = x * k + (offset - mean * k)
    grad       grad_offset = sum(dy)             grad_scale = sum(dy * (x - mean)) * rsqrt(var + eps)
               grad_x = scale * rsqrt(var + eps) / N
                        * (N * dy - sum(dy) - (x - mean) * sum(dy * (x - mean)) / (var + eps))

    before                                               after
      y = f32[8,4] batch-norm-inference(x, s, o, m, v),    e = f32[4] broadcast(f32[] constant(0.001))
          epsilon=0.001, feature_index=1                   k = f32[4] multiply(s, rsqrt(add(v, e)))
                                                           t = f32[4] subtract(o, multiply(m, k))
                                                           y = f32[8,4] add(multiply(x, broadcast(k)), broadcast(t))
                                                               (k and t broadcast along dimensions={1})

A sum is a reduce over the other dimensions with a scalar add computation (one per element
type, added to the module). Every new instruction carries the batch norm's metadata, so its
op_name and source line survive. E[x^2] - E[x]^2 loses precision when |mean| is much larger
than the standard deviation; XLA accepts that cost to read x once (the evaluator takes the
two-pass form, mean((x - mean)^2)). XLA counts N with get-dimension-size, which also works
for dynamic dimensions. hloscope's shapes are static, so N is a constant here, and a batch
norm with a dynamic dimension is left as it is (the log says so).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..ir.attributes import Literal, Raw
from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.module import HloModule
from ..ir.shape import ArrayShape, Shape
from .naming import NameUniquer
from .pipeline import HloPass
from .record import DecisionLog
from .rewrite import Rewriter, map_computations, opcodes_in

OPCODES = frozenset({"batch-norm-training", "batch-norm-inference", "batch-norm-grad"})


def epsilon_of(inst: Instruction) -> float:
    """The `epsilon` attribute as a number. XLA stores it as a float (f32), and so it is
    rounded to f32 first, then converted to the operand's type."""
    eps = inst.attr("epsilon")
    return float(np.float32(eps.text if isinstance(eps, Raw) else eps))


def scalar_add(dtype: str, names: NameUniquer, computation: str) -> Computation:
    """`computation(lhs, rhs) = add(lhs, rhs)` on scalars of `dtype`: the sums' reducer."""
    s = ArrayShape(dtype, ())
    lhs, rhs, total = names.keep_or_rename("scalar_lhs"), names.keep_or_rename("scalar_rhs"), names.next("add")
    return Computation(computation, (Instruction(lhs, "parameter", s, parameter_number=0),
                                     Instruction(rhs, "parameter", s, parameter_number=1),
                                     Instruction(total, "add", s, (lhs, rhs))), total)


class Expansion:
    """Emits one batch norm's replacement into `rw`. Arrays shaped like the operand (x) or
    like a feature vector (f), and the few helpers the formulas are written with."""

    def __init__(self, rw: Rewriter, inst: Instruction, adder: Callable[[str], str]):
        self.rw, self.inst, self.adder = rw, inst, adder
        self.x = rw.get(inst.operands[0]).array_shape  # the operand: x
        self.f = rw.get(inst.operands[1]).array_shape  # scale: one value per feature
        self.fi: int = inst.attr("feature_index")
        self.others = tuple(d for d in range(self.x.rank) if d != self.fi)
        self.n = int(np.prod([self.x.dims[d] for d in self.others]))  # elements per feature
        self.added = 0

    def op(self, opcode: str, shape: Shape, *operands: str, **attrs) -> str:
        """A new instruction (with the batch norm's metadata); returns its name."""
        self.added += 1
        return self.rw.add(opcode, shape, operands, attrs)

    def constant(self, value: float) -> str:
        """A scalar constant of the operand's element type."""
        lit = Literal(np.asarray(value, dtype=self.x.numpy_dtype).reshape(()))
        self.added += 1
        return self.rw.add("constant", ArrayShape(self.x.dtype, ()), literal=lit)

    def splat(self, scalar: str, shape: ArrayShape) -> str:
        """The scalar everywhere in `shape`."""
        return self.op("broadcast", shape, scalar, dimensions=())

    def per_element(self, feature: str) -> str:
        """A feature vector broadcast along feature_index: each element gets its feature's value."""
        return self.op("broadcast", self.x, feature, dimensions=(self.fi,))

    def sum(self, value: str, zero: str) -> str:
        """sum(value) over every dimension but feature_index: one total per feature."""
        return self.op("reduce", self.f, value, zero, dimensions=self.others, to_apply=self.adder(self.x.dtype))


def training(e: Expansion) -> str:
    """tuple(y, E[x], Var[x]) with Var[x] = E[x^2] - E[x]^2 and
    y = (x - E[x]) * rsqrt(Var[x] + eps) * scale + offset."""
    x, scale, offset = e.inst.operands
    zero, eps, n = e.constant(0), e.constant(epsilon_of(e.inst)), e.splat(e.constant(e.n), e.f)
    mean = e.op("divide", e.f, e.sum(x, zero), n)  # E[x] = sum(x) / N
    square_mean = e.op("divide", e.f, e.sum(e.op("multiply", e.x, x, x), zero), n)  # E[x^2]
    var = e.op("subtract", e.f, square_mean, e.op("multiply", e.f, mean, mean))  # E[x^2] - E[x]^2
    rsqrt = e.op("rsqrt", e.x, e.op("add", e.x, e.per_element(var), e.splat(eps, e.x)))  # 1 / sqrt(var + eps)
    normalized = e.op("multiply", e.x, e.op("subtract", e.x, x, e.per_element(mean)), rsqrt)
    scaled = e.op("multiply", e.x, normalized, e.per_element(scale))
    shifted = e.op("add", e.x, scaled, e.per_element(offset))
    return e.op("tuple", e.inst.shape, shifted, mean, var)


def inference(e: Expansion) -> str:
    """x * k + (offset - mean * k), with k = scale * rsqrt(var + eps) per feature."""
    x, scale, offset, mean, var = e.inst.operands
    eps = e.splat(e.constant(epsilon_of(e.inst)), e.f)
    k = e.op("multiply", e.f, scale, e.op("rsqrt", e.f, e.op("add", e.f, var, eps)))  # true scale
    shift = e.op("subtract", e.f, offset, e.op("multiply", e.f, mean, k))  # true shift
    return e.op("add", e.x, e.op("multiply", e.x, x, e.per_element(k)), e.per_element(shift))


def grad(e: Expansion) -> str:
    """tuple(grad_x, grad_scale, grad_offset) by the formulas in XLA's HandleBatchNormGrad."""
    x, scale, mean, var, dy = e.inst.operands
    zero, eps, n = e.constant(0), e.constant(epsilon_of(e.inst)), e.splat(e.constant(e.n), e.x)
    var_eps = e.op("add", e.x, e.per_element(var), e.splat(eps, e.x))  # var + eps, per element
    rsqrt = e.op("rsqrt", e.f, e.op("add", e.f, var, e.splat(eps, e.f)))  # rsqrt(var + eps), per feature
    centered = e.op("subtract", e.x, x, e.per_element(mean))  # x - mean
    dy_centered = e.sum(e.op("multiply", e.x, dy, centered), zero)  # sum(dy * (x - mean))
    grad_offset = e.sum(dy, zero)  # sum(dy)
    grad_scale = e.op("multiply", e.f, dy_centered, rsqrt)
    n_dy = e.op("multiply", e.x, dy, n)  # N * dy
    projection = e.op("divide", e.x, e.op("multiply", e.x, e.per_element(dy_centered), centered), var_eps)
    inner = e.op("subtract", e.x, e.op("subtract", e.x, n_dy, e.per_element(grad_offset)), projection)
    factor = e.op("multiply", e.x, e.per_element(scale), e.op("rsqrt", e.x, var_eps))  # scale * rsqrt(var + eps)
    factor = e.op("divide", e.x, factor, n)  # ... / N
    grad_x = e.op("multiply", e.x, factor, inner)
    return e.op("tuple", e.inst.shape, grad_x, grad_scale, grad_offset)


EXPANSIONS: dict[str, tuple[Callable[[Expansion], str], str]] = {
    "batch-norm-training": (training, "E[x], E[x^2] - E[x]^2, normalize, scale, shift"),
    "batch-norm-inference": (inference, "x * k + (offset - mean * k), k = scale * rsqrt(var + eps)"),
    "batch-norm-grad": (grad, "grad_offset = sum(dy), grad_scale = sum(dy * (x - mean)) * rsqrt(var + eps), grad_x"),
}


class BatchNormExpander(HloPass):
    """Expands batch-norm-training, batch-norm-inference and batch-norm-grad into reduces,
    broadcasts and elementwise arithmetic, by XLA's formulas and in the operand's type:
    statistics over every dimension but feature_index, the variance as E[x^2] - E[x]^2.
    A batch norm over a dynamic dimension is kept (its element count is not a constant)."""

    name = "batchnorm_expander"

    def run(self, module: HloModule, log: DecisionLog) -> HloModule:
        if not any(opcodes_in(c) & OPCODES for c in module.computations):
            return module
        names = NameUniquer.for_module(module)
        computation_names = NameUniquer(c.name for c in module.computations)
        adders: dict[str, Computation] = {}  # element type -> its scalar add computation

        def adder(dtype: str) -> str:
            if dtype not in adders:
                adders[dtype] = scalar_add(dtype, names, computation_names.keep_or_rename("scalar_add_computation"))
            return adders[dtype].name

        out = map_computations(module, lambda c: self._expand(c, names, adder, log))
        return out.replace(computations=(*adders.values(), *out.computations)) if adders else out

    @staticmethod
    def _expand(comp: Computation, names: NameUniquer, adder: Callable[[str], str], log: DecisionLog) -> Computation:
        if not opcodes_in(comp) & OPCODES:
            return comp
        rw = Rewriter(comp, names)
        for inst in rw.sweep():
            if inst.opcode not in OPCODES:
                rw.keep(inst)
            elif any(rw.get(inst.operands[0]).array_shape.dynamic):
                rw.keep(inst)
                log.add("kept", inst.name, f"{inst.opcode} over dynamic dimensions: its element count is not a "
                        "constant (XLA reads it with get-dimension-size)", accepted=False, computation=comp.name)
            else:
                e = Expansion(rw, inst, adder)
                expand, formula = EXPANSIONS[inst.opcode]
                result = expand(e)
                rw.replace(inst, result)
                log.add("expanded", inst.name, f"{inst.opcode} over {e.x.short()}, feature_index={e.fi} "
                        f"(N={e.n} per feature): {formula}; {e.added} instructions", target=result,
                        rule=inst.opcode.replace("-", "_"), computation=comp.name)
        return rw.finish()
