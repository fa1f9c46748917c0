"""The approximations as calls that LLVM's loop vectorizer widens (XLA:CPU's intrinsic library).

Inlined at every use, an approximation makes a fused kernel with hundreds of tanh and sin
one huge function, and LLVM's time grows with it: a chain of 1,300 elementwise HLO
instructions spent ~4 s of -O3 and code generation on 12 kernels (benchmarks/long_chain.py).
So past its first use in a module (approx.INLINED_USES), a CPU kernel calls the
approximation instead, and the scalar function names its vector forms, one per width the vectorizer may choose (the VFABI mapping, LLVM's
"vector-function-abi-variant" attribute):

    %y = call float @hloscope.tanh.f32(float %x) noinline        ; noinline here: kept a call

    define internal float @hloscope.tanh.f32(float %x) alwaysinline memory(none) ...
        "vector-function-abi-variant"="_ZGV_LLVM_N4v_hloscope.tanh.f32(hloscope.tanh.v4f32),
                                       _ZGV_LLVM_N8v_...(hloscope.tanh.v8f32),_ZGV_LLVM_N16v_..."
    define weak_odr <8 x float> @hloscope.tanh.v8f32(<8 x float> %x) ...   ; the same code, 8 lanes

The vectorizer turns the call in the vector loop into `call <8 x float> @hloscope.tanh.v8f32`:
each approximation is optimized and compiled once per module and width, not once per use,
and a kernel's loop body stays a short list of calls. The vector forms are written by the same
MathBuilder code as the scalar ones (builder.py), so their results are the same bits.

The vector forms are `weak_odr` while LLVM optimizes: nothing may delete them before the
vectorizer has run, though no call names them yet. So is the scalar form: an internal one
may lose an argument that every call passes the same constant (arctan is atan2(x, 1)),
and its mapping would then name a function of another type. Afterwards llvm_child.py makes them
internal, and the widths no loop chose are dropped before code generation.
"""

from __future__ import annotations

from llvmlite import ir
from llvmlite.ir.values import FunctionAttributes

from ..llvm_types import F64
from .builder import type_suffix

WIDTHS = {False: (4, 8, 16), True: (2, 4, 8)}  # f32, f64: SSE, AVX and AVX-512 registers, one or two
MAPPING = "vector-function-abi-variant"
KEPT_LINKAGE = "weak_odr"  # until the vectorizer ran (llvm_child.py)


class MathAttributes(FunctionAttributes):
    """A function's attributes plus what llvmlite does not know: `memory(none)` and
    `willreturn` (the vectorizer widens only calls without side effects), and the VFABI
    mapping to the vector forms."""

    def __init__(self, args=(), mapping: str = ""):
        super().__init__(args)
        self.mapping = mapping

    def _to_list(self, ret_type):
        extra = ["memory(none)", "willreturn"] + ([f'"{MAPPING}"="{self.mapping}"'] if self.mapping else [])
        return super()._to_list(ret_type) + extra


def no_side_effects(fn: ir.Function) -> None:
    """Mark an approximation `memory(none) willreturn nounwind` (keeping its other attributes)."""
    attributes = MathAttributes(mapping=getattr(fn.attributes, "mapping", ""))
    for name in fn.attributes:
        attributes.add(name)
    attributes.add("nounwind")
    fn.attributes = attributes


def vector_name(opcode: str, ty: ir.Type, lanes: int) -> str:
    return f"hloscope.{opcode}.{type_suffix(ir.VectorType(ty, lanes))}"


def map_to_vector_forms(module: ir.Module, scalar: ir.Function, opcode: str, ty: ir.Type) -> None:
    """Give `scalar` (the approximation of `opcode` on `ty`) its vector forms, defined once
    per module and kept until the vectorizer ran."""
    if getattr(scalar.attributes, "mapping", ""):
        return
    from .approx import function_for

    mappings = []
    for lanes in WIDTHS[ty == F64]:
        fn = function_for(module, opcode, ir.VectorType(ty, lanes))
        fn.linkage = KEPT_LINKAGE
        arity = "v" * len(scalar.args)
        mappings.append(f"_ZGV_LLVM_N{lanes}{arity}_{scalar.name}({fn.name})")
    scalar.attributes.mapping = ",".join(mappings)  # pyright: ignore[reportAttributeAccessIssue]
    scalar.linkage = KEPT_LINKAGE  # internal, LLVM may drop a constant argument and break the mapping


def outlined_call(b: ir.IRBuilder, module: ir.Module, opcode: str, args: list[ir.Value]) -> ir.Value:
    """A call of the approximation that stays a call until the loop vectorizer has replaced
    it with a vector form's (see the module docstring)."""
    from .approx import function_for

    ty = args[0].type  # pyright: ignore[reportAttributeAccessIssue]
    fn = function_for(module, opcode, ty)
    map_to_vector_forms(module, fn, opcode, ty)
    return b.call(fn, args, attrs=("noinline",))
