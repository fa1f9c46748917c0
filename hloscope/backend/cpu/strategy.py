"""Which kind of kernel computes each instruction on the CPU, and why: decided from the
module and the options alone, before any code exists.

The kernel choices (kernel_choices.py) ask these questions as they emit, and emit what the
answer names; the kernel-strategy pass (kernel_strategy_pass.py) asks the same ones over a
whole module before memory planning and records the answers, with their reasons. One set
of answers, so what the record says is what the code does.

    convolution   library-conv (depthwise, or im2col in cache-sized blocks), conv-gemm
                  (im2col + BLAS), conv-direct (loops along output features)
    dot           dot-blas (a BLAS gemm, 16-bit floats widened to f32 first), dot-loops
    reduce        library-reduce (the precompiled kernel), reduce-partials (a full
                  reduction split in chunks for every core), reduce (row or column loops),
                  or the loop kernel's elemental reduce
    reduce-window scan (a prefix or suffix scan), else the loop kernel
    sort, scatter, select-and-scatter, topk: a kernel of their own
    anything else loop: for each output element, the fused computation

Row programs (softmax, layer norm: rows/) are found over the instructions' buffers, by
RowPrograms.find; the pass asks it first, as the lowering does.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...ir.computation import Computation
from ...ir.instruction import Instruction
from ...ir.module import HloModule
from ..buffers import BufferLayout, operand_buffers
from ..conv_geometry import ConvGeometry
from ..dispatch import computation_of
from ..emit_context import EmitOptions
from ..gemm import gemm_form
from ..in_place import safe_outputs
from ..kernel_spec import KernelSpec
from ..reduction import ReduceParts, loop_plan, reduce_parts
from .conv_kernel import choose_gemm, input_is_matrix
from .dot_kernel import blas_ok
from .fast.library.calls import PlainReduce, conv2d_fits, depthwise_fits, plain_reduce
from .scan_kernel import ScanPlan, scan_plan
from .split_reduce import chunk_count
from .widening_dot import SIXTEEN_BIT, widening_ok

LIBRARY_OFF = "library=False"
OWN = {
    "sort": "a stable merge sort of each row",
    "scatter": "the updates applied in order, on one thread (the order decides repeated indices)",
    "select-and-scatter": "each window's selected element gets its source value, in order",
    "topk": "each row's k largest kept in k slots by insertion",
    "custom-call": "each row's k largest kept in k slots by insertion (TopK)",
}
OWN_KERNEL_ROOTS = frozenset({*OWN, "convolution"})  # roots with a kernel of their own


@dataclass(frozen=True)
class Strategy:
    """A kernel strategy: its kind (the kernel's, as the report shows it), why, and what
    the emitter needs besides (a split reduction's chunks, the library's reduction, a scan's
    plan, which library convolution)."""

    kind: str
    reason: str
    chunks: int = 0
    plain: PlainReduce | None = None
    scan: ScanPlan | None = None
    form: str = ""  # library-conv: "depthwise" or "im2col"; dot-blas: "widened" for 16-bit floats


class CpuStrategies:
    """The CPU's answers for one module under these options (see the module docstring)."""

    def __init__(self, hlo: HloModule, options: EmitOptions, parallel_min_elements: int):
        self.hlo, self.options, self.parallel_min_elements = hlo, options, parallel_min_elements

    def own(self, comp: Computation) -> Strategy:
        """A root with a kernel of its own (a convolution's kind depends on its geometry)."""
        root = comp.root_instruction
        if root.opcode == "convolution":
            return self.convolution(comp)
        return Strategy("topk" if root.opcode == "custom-call" else root.opcode, OWN[root.opcode])

    def convolution(self, comp: Computation) -> Strategy:
        conv = comp.root_instruction
        ops = [comp[o] for o in conv.operands]
        if any(o.opcode != "parameter" for o in ops):
            return Strategy("conv-direct", "computed operands: refused at lowering")
        geom = ConvGeometry.of(conv, ops[0].array_shape, ops[1].array_shape)
        library = self.options.library
        if library and depthwise_fits(geom):
            return Strategy("library-conv", f"{geom.describe()}: depthwise, the library's kernel (precompiled; "
                            "one input feature per group, features contiguous)", form="depthwise")
        use_gemm, why = choose_gemm(geom, self.options.dot)
        if use_gemm and library and not input_is_matrix(geom) and conv2d_fits(geom):
            return Strategy("library-conv", f"{geom.describe()}: {why}, the library's kernel (im2col rows in "
                            "cache-sized blocks)", form="im2col")
        return Strategy("conv-gemm" if use_gemm else "conv-direct", f"{geom.describe()}: {why}")

    def has_dot_kernel(self, comp: Computation, dot: Instruction) -> bool:
        """A dot of two parameters in matrix form gets a dot kernel of its own. A 16-bit
        float one only through the f32 BLAS (widening_dot); with dot="loops" it stays
        elemental, accumulating in f32 registers and rounding once."""
        ops = [comp[o] for o in dot.operands]
        if any(o.opcode != "parameter" for o in ops):
            return False
        if self._widened(dot, ops[0], ops[1]):
            return True
        if any(t in SIXTEEN_BIT for t in (dot.array_shape.dtype, ops[0].array_shape.dtype, ops[1].array_shape.dtype)):
            return False
        return gemm_form(dot, ops[0].array_shape, ops[1].array_shape) is not None

    def dot(self, comp: Computation, dot: Instruction) -> Strategy:
        """The kernel of a dot has_dot_kernel takes."""
        lhs, rhs = (comp[o] for o in dot.operands)
        form = gemm_form(dot, lhs.array_shape, rhs.array_shape)
        assert form is not None, "has_dot_kernel takes only dots in matrix form"
        shape = f"{form.batch}x[{form.m}x{form.k}]@[{form.k}x{form.n}]"
        if self._widened(dot, lhs, rhs):
            return Strategy("dot-blas", f"a {dot.array_shape.dtype} gemm {shape}: widened to f32 for the f32 BLAS, "
                            "accumulated in f32", form="widened")
        if self.options.dot == "blas" and blas_ok(dot, lhs.array_shape, rhs.array_shape):
            return Strategy("dot-blas", f"a {dot.array_shape.dtype} gemm {shape}: the BLAS, split across threads")
        why = "the dot option is 'loops'" if self.options.dot != "blas" else "no BLAS gemm for these types"
        return Strategy("dot-loops", f"a gemm {shape} as tiled loops: {why}")

    def _widened(self, dot: Instruction, lhs: Instruction, rhs: Instruction) -> bool:
        return self.options.dot == "blas" and widening_ok(dot, lhs.array_shape, rhs.array_shape)

    def reduction(self, comp: Computation, parts: ReduceParts, after_dots: bool) -> Strategy | None:
        """The kernel of a reduce-rooted computation; None: the loop kernel's elemental
        reduce (`after_dots`: its dots have kernels of their own, and it reads their results)."""
        if _sixteen_bit_column(comp, parts):
            return None  # accumulate in f32 registers per output element (the elemental reduce)
        chunks = chunk_count(self.hlo, comp, parts, self.parallel_min_elements) if not after_dots else 0
        plain = None
        if self.options.library and self.options.reassociate_reductions and not after_dots:
            plain = plain_reduce(self.hlo, comp, parts)
        if plain is not None:
            what = f"a {plain.op} over the minor dimensions of a parameter: the library's precompiled kernel"
            if chunks > 1 and len(plain.reduced) == plain.source.array_shape.rank:
                return Strategy("library-reduce", f"{what}, on {chunks} chunks for every core, then combined",
                                chunks=chunks, plain=plain)
            return Strategy("library-reduce", what, plain=plain)
        if chunks > 1:
            size = comp[parts.heroes[0][0].operands[0]].array_shape.size
            return Strategy("reduce-partials", f"a full reduction of {size:,} elements: {chunks} chunks reduced "
                            "on every core, then combined", chunks=chunks)
        return Strategy("reduce", "row or column loops, the accumulator in registers or in the output")

    def loop(self, comp: Computation, after_dots: bool) -> Strategy:
        plan = scan_plan(self.hlo, comp) if not after_dots else None
        if plan is not None:
            return Strategy("scan", plan.reason, scan=plan)
        return Strategy("loop", "plain loops: each output element computed from the fused computation")


def _sixteen_bit_column(comp: Computation, parts: ReduceParts) -> bool:
    """A column reduction (accumulating in memory) with an f16/bf16 result would round at
    every step; those use the elemental reduce, which carries the sum in f32."""
    hero = parts.heroes[0][0]
    in_shape = comp[hero.operands[0]].array_shape
    half = any(o.shape.dtype in ("f16", "bf16") for _, outs in parts.heroes for o in outs)
    return half and bool(loop_plan(in_shape, set(hero.attr("dimensions")))["inner"])


def instruction_strategies(strategies: CpuStrategies, inst: Instruction, comp: Computation,
                           layout: BufferLayout) -> list[Strategy]:
    """The strategies of `inst`'s kernels, in order, as dispatch.lower_instruction asks the
    CPU's kernel choices for them: a root's own kernel; else a kernel per dot that has one,
    then the reduction's kernels or the loop kernel."""
    kernel_comp = computation_of(inst, comp, strategies.hlo)
    root = kernel_comp.root_instruction
    if root.opcode in OWN_KERNEL_ROOTS:
        return [strategies.own(kernel_comp)]
    dots = [d for d in kernel_comp.instructions if d.opcode == "dot" and strategies.has_dot_kernel(kernel_comp, d)]
    if root.opcode == "dot" and root in dots:
        return [strategies.dot(kernel_comp, root)]
    first = [strategies.dot(kernel_comp, d) for d in dots]
    inputs = operand_buffers(inst, layout, "cpu")
    spec = KernelSpec(inst.name, inst.name, kernel_comp, inputs,
                      safe_outputs(kernel_comp, inputs, layout.of(inst.name), layout))
    parts = reduce_parts(spec)
    main = strategies.reduction(kernel_comp, parts, bool(dots)) if parts is not None else None
    return [*first, main or strategies.loop(kernel_comp, bool(dots))]
