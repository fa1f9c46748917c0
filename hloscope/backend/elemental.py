"""The elemental emitter: the LLVM value of instruction I at index i.

This is XLA's ElementalIrEmitter plus FusedIrEmitter. For each opcode a rule says how to
compute one element of the result: elementwise ops look up the per-opcode scalar table
(scalar_ops) on their operands at the same index; data-movement ops (broadcast, reshape,
transpose, slice, pad, concatenate, ...) only remap the index and ask their operand;
reductions and dots loop over the reduced positions (elemental_reduce). A loop fusion is
therefore a loop nest around one call: `value(root, index)`; the fused parameters are
"leaves" that load from the kernel's buffers.

Values are cached per (instruction, index object) so `x * x` loads x once. Rules that open
an inner loop open a cache scope, so nothing computed inside that loop leaks out of it.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Callable

from llvmlite import ir

from ..ir.computation import Computation
from ..ir.instruction import Instruction
from ..ir.opcodes import OPCODES, comparison_type
from ..ir.shape import ArrayShape, default_layout
from . import elemental_data, elemental_reduce, scalar_convert, scalar_ops
from .emit_context import EmitContext
from .index import Index, add, delinearize, is_default_physical, linearize, mul
from .kernel_spec import parameter_number
from .llvm_types import I64, constant, load, round_to
from .unsupported import unsupported

Leaf = Callable[[Index], ir.Value]


class ElementalEmitter:
    """Emits values of one computation's instructions at given indices."""

    def __init__(self, ctx: EmitContext, comp: Computation, leaves: dict[str, Leaf]):
        self.ctx = ctx
        self.b = ctx.b
        self.comp = comp
        self.leaves = leaves
        self._scopes: list[dict] = [{}]

    def value(self, name: str, index: Index):
        """The value of instruction `name` at `index` (an Index of its shape's dimensions)."""
        key = (name, id(index))
        for scope in reversed(self._scopes):
            if key in scope:
                return scope[key][1]
        inst = self.comp[name]
        if name in self.leaves:
            result = self.leaves[name](index)
        else:
            fn = RULES.get(inst.opcode)
            if fn is None:
                raise unsupported(self.ctx.target, inst.opcode, inst.name)
            result = fn(self, inst, index)
        self._scopes[-1][key] = (index, result)  # keep `index` alive: its id is in the key
        return result

    def operand(self, inst: Instruction, i: int, index: Index):
        """Operand i at the same position (scalars at the empty index)."""
        op = self.comp[inst.operands[i]]
        shape = op.array_shape
        if shape.rank == 0:
            return self.value(op.name, Index.scalar(shape))
        return self.value(op.name, index.retyped(self.b, shape))

    def operand_shape(self, inst: Instruction, i: int) -> ArrayShape:
        return self.comp[inst.operands[i]].array_shape

    def apply(self, computation: str, args: list):
        """Run a scalar computation (a reducer, a map's function) on register values.

        Returns the root's value, or a tuple of values for a tuple-shaped root.
        """
        comp = self.ctx.hlo.computation(computation)
        leaves = {p.name: _constant_leaf(args[parameter_number(p)]) for p in comp.parameters}
        nested = ElementalEmitter(self.ctx, comp, leaves)
        return nested.value(comp.root, Index.scalar(_scalar_shape(comp.root_instruction.shape)))

    def nested(self, comp: Computation, leaves: dict[str, Leaf]) -> "ElementalEmitter":
        """An emitter for a called computation (a `call`), sharing this one's context."""
        return ElementalEmitter(self.ctx, comp, leaves)

    @contextmanager
    def scope(self):
        """Values computed inside (an inner loop body) are forgotten on exit."""
        self._scopes.append({})
        try:
            yield
        finally:
            self._scopes.pop()


def _constant_leaf(value) -> Leaf:
    return lambda index: value


def _scalar_shape(shape) -> ArrayShape:
    """Any array shape works as the shape of a scalar index; tuples use their first leaf."""
    return shape if isinstance(shape, ArrayShape) else ArrayShape("s32", ())


def buffer_leaf(ctx: EmitContext, ptr: ir.Value, shape: ArrayShape) -> Leaf:
    """A leaf that loads elements of `shape` from the buffer at `ptr`."""
    from .llvm_types import storage_type

    def load_at(index: Index) -> ir.Value:
        offset = index.linear_for(ctx.b, shape)
        address = ctx.b.gep(ptr, [offset], inbounds=True, source_etype=storage_type(shape.dtype))
        return load(ctx.b, address, shape.dtype)

    return load_at


# ---------------------------------------------------------------- elementwise
def _elementwise(em: ElementalEmitter, inst: Instruction, index: Index):
    ctx = em.ctx.scalar
    args = [em.operand(inst, i, index) for i in range(len(inst.operands))]
    src = em.operand_shape(inst, 0).dtype
    out = inst.array_shape.dtype
    op = inst.opcode
    if op == "compare":
        return scalar_ops.emit_compare(ctx, inst.attr("direction"), comparison_type(inst), args[0], args[1], src)
    if op == "select":
        return em.b.select(args[0], args[1], args[2])
    if op == "clamp":
        value = scalar_ops.emit_clamp(ctx, args[0], args[1], args[2], out)
    elif op == "convert":
        return scalar_convert.emit_convert(ctx, args[0], src, out)
    elif op == "bitcast-convert":
        return scalar_convert.emit_bitcast_convert(ctx, args[0], src, out)
    elif op == "reduce-precision":
        value = scalar_convert.emit_reduce_precision(ctx, args[0], src, inst.attr("exponent_bits"), inst.attr("mantissa_bits"))
    elif len(args) == 1:
        value = scalar_ops.emit_unary(ctx, op, args[0], src, out)
    else:
        value = scalar_ops.emit_binary(ctx, op, args[0], args[1], src)
    return round_to(em.b, value, out) if value.type != ir.IntType(1) else value


# ---------------------------------------------------------------- index remapping
def _broadcast(em, inst, index):
    shape = em.operand_shape(inst, 0)
    if shape.rank == 0:
        return em.value(inst.operands[0], Index.scalar(shape))
    multi = index.multi(em.b)
    return em.value(inst.operands[0], Index(shape, multi=[multi[d] for d in inst.attr("dimensions")]))


def _reshape(em, inst, index):
    shape = em.operand_shape(inst, 0)
    return em.value(inst.operands[0], reshape_index(em.b, index, shape))


def reshape_index(b: ir.IRBuilder, index: Index, shape: ArrayShape) -> Index:
    """The operand position of a reshape's output position (row-major element order)."""
    out = index.shape
    if index.has_linear and is_default_physical(out) and is_default_physical(shape):
        return Index(shape, linear=index.linear(b))
    multi = index.multi(b)
    kept_out = [i for i, d in enumerate(out.dims) if d != 1]
    kept_in = [i for i, d in enumerate(shape.dims) if d != 1]
    if [out.dims[i] for i in kept_out] == [shape.dims[i] for i in kept_in]:
        op_multi: list[ir.Value] = [I64(0)] * shape.rank
        for i, o in zip(kept_in, kept_out):
            op_multi[i] = multi[o]
        return Index(shape, multi=op_multi)
    flat = linearize(b, multi, out.dims, default_layout(out.rank))
    return Index(shape, multi=delinearize(b, flat, shape.dims, default_layout(shape.rank)))


def _bitcast(em, inst, index):
    """Same bytes, new shape or layout: the physical offset is unchanged."""
    shape = em.operand_shape(inst, 0)
    return em.value(inst.operands[0], Index(shape, linear=index.linear(em.b)))


def _transpose(em, inst, index):
    shape = em.operand_shape(inst, 0)
    multi = index.multi(em.b)
    op_multi = [None] * shape.rank
    for out_dim, in_dim in enumerate(inst.attr("dimensions")):
        op_multi[in_dim] = multi[out_dim]
    return em.value(inst.operands[0], Index(shape, multi=op_multi))


def _slice(em, inst, index):
    shape = em.operand_shape(inst, 0)
    multi = index.multi(em.b)
    op_multi = [add(em.b, mul(em.b, i, s.stride), I64(s.start)) for i, s in zip(multi, inst.attr("slice"))]
    return em.value(inst.operands[0], Index(shape, multi=op_multi))


def _reverse(em, inst, index):
    shape = em.operand_shape(inst, 0)
    multi = list(index.multi(em.b))
    for d in inst.attr("dimensions"):
        multi[d] = em.b.sub(I64(shape.dims[d] - 1), multi[d])
    return em.value(inst.operands[0], Index(shape, multi=multi))


def _iota(em, inst, index):
    i = index.multi(em.b)[inst.attr("iota_dimension")]
    return scalar_convert.emit_convert(em.ctx.scalar, i, "s64", inst.shape.dtype)


def _constant(em, inst, index):
    value = inst.literal.value
    if inst.shape.rank == 0 or value.size == 1:
        return constant(inst.shape.dtype, value.reshape(-1)[0])
    g = em.ctx.constants.global_for(em.comp.name, inst)
    leaf = buffer_leaf(em.ctx, g, inst.shape)
    return leaf(index)


def _tuple(em, inst, index):
    return tuple(em.operand(inst, i, index) for i in range(len(inst.operands)))


def _get_tuple_element(em, inst, index):
    return em.value(inst.operands[0], index)[inst.attr("index")]


RULES: dict[str, Callable] = {
    **{name: _elementwise for name, row in OPCODES.items() if row.elementwise and name not in ("real", "imag", "complex")},
    "broadcast": _broadcast,
    "reshape": _reshape,
    "bitcast": _bitcast,
    "transpose": _transpose,
    "slice": _slice,
    "reverse": _reverse,
    "iota": _iota,
    "constant": _constant,
    "tuple": _tuple,
    "get-tuple-element": _get_tuple_element,
    **elemental_data.RULES,
    **elemental_reduce.RULES,
}
