"""Legalize StableHLO to HLO: each MLIR operation becomes the HLO instructions that compute it.

Most operations have an HLO opcode of the same meaning, and the work is in the spelling
(`broadcast_in_dim` is `broadcast`, `dims = [1]` is `dimensions={1}`). Where the two languages
differ in structure, the difference is the lesson:

- **Functions** become computations; `func.call` becomes HLO's `call`.
- **Regions** (the body of a reduce, a sort's comparator, a while loop's condition and body, a
  case's branches) become computations of their own. A region may use values defined outside
  it (MLIR allows it, HLO does not): a loop carries them in its tuple, unchanged; a branch gets
  them as its operand; a reducer's constant is written again inside.
- **Several results** (a while loop, a variadic reduce or sort, a function returning a pair)
  are one tuple-shaped HLO instruction, taken apart with `get-tuple-element`.
- **Implicit broadcasts**: StableHLO's select and clamp take a scalar where HLO wants a full
  shape, so the scalar is broadcast first.
- **Splat constants** (`dense<0.0> : tensor<4x8xf32>`) are a scalar constant broadcast.

Each instruction keeps the operation it came from (a Link: its MLIR line and op name) and its
location as HLO metadata (op_name, source_file, source_line), so a view can put the user's
source line, the StableHLO and the HLO side by side.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ..errors import HloParseError
from .chlo_expansions import erf_inv
from .constants import dense_array, is_splat, literal_text
from .locations import OpLocation, resolve
from .syntax import Block, Dense, Enum, Function, MlirModule, Operation, MlirRegion, Symbol, TensorType, TupleType, Type


@dataclass(frozen=True)
class HloValue:
    """An SSA value's HLO form: the instruction that holds it and its type."""

    name: str
    type: Type


@dataclass(frozen=True)
class Link:
    """One HLO instruction and the MLIR operation it was made from."""

    computation: str
    instruction: str
    opcode: str
    operation: str  # "stablehlo.dot_general"
    mlir_line: int
    source: OpLocation


@dataclass
class Legalized:
    """The legalization's record: the HLO text it wrote and where each instruction came from."""

    mlir: MlirModule
    hlo_text: str
    links: list[Link]
    notes: list[str] = field(default_factory=list)

    def links_of(self, mlir_line: int) -> list[Link]:
        return [link for link in self.links if link.mlir_line == mlir_line]


class LegalizationError(HloParseError):
    """An operation that cannot be legalized, at its line and column in the MLIR text."""


class _Computation:
    """An HLO computation being written: its parameters and its instruction lines."""

    def __init__(self, name: str):
        self.name = name
        self.parameters: list[HloValue] = []
        self.lines: list[tuple[str, str]] = []  # (instruction name, its text after the name)

    def text(self, root: HloValue, entry: bool) -> str:
        params = ", ".join(f"{p.name}: {p.type.hlo()}" for p in self.parameters)
        head = f"{'ENTRY ' if entry else ''}%{self.name} ({params}) -> {root.type.hlo()} {{"
        body = [f"  {'ROOT ' if name == root.name else ''}%{name} = {rest}" for name, rest in self.lines]
        return "\n".join([head, *body, "}"])


class _Scope:
    """SSA names visible here: this region's, then (for regions that may see them) the enclosing ones."""

    def __init__(self, parent: _Scope | None = None):
        self.values: dict[str, HloValue] = {}
        self.defining: dict[str, Operation] = {}
        self.parent = parent

    def get(self, name: str) -> HloValue | None:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.values:
                return scope.values[name]
            scope = scope.parent
        return None

    def definition(self, name: str) -> Operation | None:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.defining:
                return scope.defining[name]
            scope = scope.parent
        return None


class Legalizer:
    def __init__(self, mlir: MlirModule):
        self.mlir = mlir
        self.count = 0
        self.texts: list[str] = []  # computations in the order they were finished (callees first)
        self.functions: dict[str, tuple[str, list[Type]]] = {}  # MLIR function -> (computation, result types)
        self.links: list[Link] = []
        self.notes: list[str] = []
        self._sources: dict[int, OpLocation] = {}

    # ---- the module ----
    def run(self) -> Legalized:
        entry = self.mlir.entry
        self._function(entry, is_entry=True)
        return Legalized(self.mlir, f"HloModule {_hlo_name(self.mlir.name)}\n\n" + "\n\n".join(self.texts) + "\n",
                         self.links, self.notes)

    def _unique(self, base: str) -> str:
        self.count += 1
        return f"{base}.{self.count}"

    def _function(self, f: Function, is_entry: bool = False) -> str:
        if f.name in self.functions:
            return self.functions[f.name][0]
        comp = _Computation(self._unique("main" if is_entry else _hlo_name(f.name)))
        self.functions[f.name] = (comp.name, f.result_types)
        scope = _Scope()
        for i, (name, kind) in enumerate(f.arguments):
            scope.values[name] = self._parameter(comp, kind, f"Arg_{i}" if is_entry else _hlo_name(name[1:]))
        results = self._block(comp, f.body, scope)
        self._finish(comp, results, is_entry)
        return comp.name

    def _parameter(self, comp: _Computation, kind: Type, hint: str) -> HloValue:
        value = HloValue(self._unique(hint), kind)
        comp.parameters.append(value)
        comp.lines.append((value.name, f"{kind.hlo()} parameter({len(comp.parameters) - 1})"))
        return value

    def _finish(self, comp: _Computation, results: list[HloValue], is_entry: bool = False,
                op: Operation | None = None) -> HloValue:
        root = results[0] if len(results) == 1 else self._emit(comp, "tuple", TupleType(tuple(r.type for r in results)),
                                                               results, op=op)
        self.texts.append(comp.text(root, is_entry))
        return root

    # ---- blocks ----
    def _block(self, comp: _Computation, block: Block, scope: _Scope) -> list[HloValue]:
        """Legalize a block's operations; return the values its terminator returns."""
        for op in block.operations:
            if op.short_name == "return":
                return [self._use(scope, name, op) for name in op.operands]
            rule = RULES.get(op.short_name)
            if rule is None or op.name.split(".")[0] not in ("stablehlo", "mhlo", "chlo", "func"):
                raise self._error(op, f"{op.name} is not supported by hloscope's StableHLO legalization")
            args = [self._use(scope, name, op) for name in op.operands]
            results = rule(self, comp, op, args, scope)
            if len(results) != len(op.results):
                raise self._error(op, f"{op.name} gave {len(results)} results where the text names {len(op.results)}")
            for name, value in zip(op.results, results):
                scope.values[name] = value
                scope.defining[name] = op
        raise LegalizationError("a block has no return", 0, 0, "")

    def _use(self, scope: _Scope, name: str, op: Operation) -> HloValue:
        value = scope.get(name)
        if value is None:
            raise self._error(op, f"{name} is used here but not defined before")
        return value

    # ---- writing instructions ----
    def _emit(self, comp: _Computation, opcode: str, kind: Type, operands: list[HloValue],
              attrs: list[str] | tuple[str, ...] = (), op: Operation | None = None, literal: str | None = None) -> HloValue:
        name = self._unique(opcode)
        args = literal if literal is not None else ", ".join(f"%{v.name}" for v in operands)
        parts = [f"{kind.hlo()} {opcode}({args})", *[a for a in attrs if a]]
        if op is not None:
            source = self._source(op)
            if source.metadata():
                parts.append(source.metadata())
            self.links.append(Link(comp.name, name, opcode, op.name, op.line, source))
        comp.lines.append((name, ", ".join(parts)))
        return HloValue(name, kind)

    def _source(self, op: Operation) -> OpLocation:
        key = id(op)
        if key not in self._sources:
            self._sources[key] = resolve(op.location, self.mlir.location_aliases)
        return self._sources[key]

    def _error(self, op: Operation, message: str) -> LegalizationError:
        lines = self.mlir.text.splitlines()
        source = lines[op.line - 1] if 0 < op.line <= len(lines) else ""
        return LegalizationError(message, op.line, op.column, source)

    def _tuple_parts(self, comp: _Computation, whole: HloValue, op: Operation | None) -> list[HloValue]:
        assert isinstance(whole.type, TupleType)
        return [self._emit(comp, "get-tuple-element", t, [whole], [f"index={i}"], op)
                for i, t in enumerate(whole.type.items)]

    def _broadcast_to(self, comp: _Computation, value: HloValue, kind: TensorType, op: Operation) -> HloValue:
        """A scalar operand made the full shape (StableHLO's select and clamp allow scalars)."""
        if isinstance(value.type, TensorType) and value.type.dims == kind.dims:
            return value
        return self._emit(comp, "broadcast", TensorType(_element(value.type), kind.dims), [value], ["dimensions={}"],
                          op)

    # ---- regions ----
    def scalar_region(self, region: MlirRegion, base: str, scope: _Scope, op: Operation) -> str:
        """A reducer, comparator or combiner: one parameter per block argument. Values from
        outside may only be constants, which are written again inside."""
        comp = _Computation(self._unique(base))
        inner = _Scope()
        for name, kind in region.block.arguments:
            inner.values[name] = self._parameter(comp, kind, _hlo_name(name[1:]))
        for name in free_values([region]):
            definition = scope.definition(name)
            if definition is None or definition.short_name != "constant":
                raise self._error(op, f"this {op.name}'s body uses {name}, defined outside it; only constants may be")
            inner.values[name] = constant(self, comp, definition, [], inner)[0]
        self._finish(comp, self._block(comp, region.block, inner), op=op)
        return comp.name

    def tuple_region(self, region: MlirRegion, base: str, carried: list[Type], captured: list[str], scope: _Scope,
                     op: Operation, pass_through: bool) -> str:
        """A loop's condition or body, or a branch: one tuple parameter holding the block's
        arguments, then the captured values. A loop body passes the captured values through."""
        comp = _Computation(self._unique(base))
        captured_types = [self._use(scope, name, op).type for name in captured]
        whole = self._parameter(comp, TupleType(tuple(carried + captured_types)), "arg_tuple")
        parts = self._tuple_parts(comp, whole, op) if carried or captured else []
        inner = _Scope()
        names = [name for name, _ in region.block.arguments] + captured
        for name, part in zip(names, parts):
            inner.values[name] = part
        for name in captured:
            definition = scope.definition(name)
            if definition is not None:
                inner.defining[name] = definition
        results = self._block(comp, region.block, inner)
        if pass_through:
            results = results + parts[len(carried):]
        self._finish(comp, results, op=op)
        return comp.name


def free_values(regions: list[MlirRegion]) -> list[str]:
    """The values the regions use but do not define, in the order they are first used."""
    found: dict[str, None] = {}

    def walk(block: Block, defined: set[str]) -> None:
        defined = defined | {name for name, _ in block.arguments}
        for op in block.operations:
            for name in op.operands:
                if name not in defined:
                    found.setdefault(name)
            for region in op.regions:
                for inner in region.blocks:
                    walk(inner, defined)
            defined |= set(op.results)

    for region in regions:
        for block in region.blocks:
            walk(block, set())
    return list(found)


# ---- the rules: one per operation ----

Rule = Callable[[Legalizer, _Computation, Operation, list[HloValue], _Scope], list[HloValue]]
RULES: dict[str, Rule] = {}


def rule(*names: str):
    def register(f: Rule) -> Rule:
        for name in names:
            RULES[name] = f
        return f

    return register


# StableHLO's elementwise operations and the HLO opcodes of the same meaning.
ELEMENTWISE = {
    "abs": "abs", "add": "add", "and": "and", "atan2": "atan2", "cbrt": "cbrt", "ceil": "ceil",
    "complex": "complex", "cosine": "cosine", "count_leading_zeros": "count-leading-zeros", "divide": "divide",
    "exponential": "exponential", "exponential_minus_one": "exponential-minus-one", "floor": "floor",
    "imag": "imag", "is_finite": "is-finite", "log": "log", "log_plus_one": "log-plus-one",
    "logistic": "logistic", "maximum": "maximum", "minimum": "minimum", "multiply": "multiply",
    "negate": "negate", "not": "not", "or": "or", "popcnt": "popcnt", "power": "power", "real": "real",
    "remainder": "remainder", "round_nearest_afz": "round-nearest-afz", "round_nearest_even": "round-nearest-even",
    "rsqrt": "rsqrt", "shift_left": "shift-left", "shift_right_arithmetic": "shift-right-arithmetic",
    "shift_right_logical": "shift-right-logical", "sign": "sign", "sine": "sine", "sqrt": "sqrt",
    "subtract": "subtract", "tan": "tan", "tanh": "tanh", "xor": "xor", "convert": "convert",
    "reshape": "reshape", "erf": "erf", "copy": "copy",
    # mhlo's spellings
    "exponential_minus_one_": "exponential-minus-one", "cosine_": "cosine", "sine_": "sine",
    "round": "round-nearest-afz",
}


def _result(op: Operation, index: int = 0) -> Type:
    if index >= len(op.result_types):
        raise LegalizationError(f"{op.name} has no result type", op.line, op.column, "")
    return op.result_types[index]


def _tensor(op: Operation, index: int = 0) -> TensorType:
    kind = _result(op, index)
    assert isinstance(kind, TensorType), f"{op.name}'s result is a tensor"
    return kind


def _element(kind: Type) -> str:
    assert isinstance(kind, TensorType)
    return kind.element


def _ints(op: Operation, *names: str, default: list[int] | None = None) -> list[int]:
    """An integer-list attribute under any of its spellings (pretty, generic, MHLO)."""
    for name in names:
        if name in op.attributes:
            return _as_ints(op.attributes[name])
    if default is not None:
        return default
    raise LegalizationError(f"{op.name} needs {names[0]}", op.line, op.column, "")


def _as_ints(value) -> list[int]:
    if isinstance(value, Dense):
        return [int(v) for v in dense_array(value).reshape(-1)]
    if isinstance(value, list):
        return [int(v) for v in value]
    return [int(value)]


def _braces(values) -> str:
    return "{" + ",".join(str(int(v)) for v in values) + "}"


def _enum(value) -> str:
    return value.value if isinstance(value, Enum) else str(value)


for _name, _opcode in ELEMENTWISE.items():
    def _elementwise(lz, comp, op, args, scope, _opcode=_opcode):
        return [lz._emit(comp, _opcode, _result(op), args, op=op)]

    RULES[_name] = _elementwise


RULES["erf_inv"] = erf_inv


@rule("convert")
def convert(lz, comp, op, args, scope):
    """StableHLO converts a complex number to a real type by its real part; HLO's convert
    refuses complex to real, so the real part is taken first, as XLA's conversion does."""
    kind, value = _tensor(op), args[0]
    source = _element(value.type)
    if source in ("c64", "c128") and kind.element not in ("c64", "c128"):
        part = TensorType("f32" if source == "c64" else "f64", kind.dims)
        value = lz._emit(comp, "real", part, [value], op=op)
        if part.element == kind.element:
            return [value]
    return [lz._emit(comp, "convert", kind, [value], op=op)]


@rule("bitcast_convert")
def bitcast_convert(lz, comp, op, args, scope):
    if "pred" in (_element(args[0].type), _tensor(op).element):
        raise lz._error(op, "bitcast_convert to or from i1 is not supported: StableHLO's i1 is one bit, "
                            "HLO's pred a byte")
    return [lz._emit(comp, "bitcast-convert", _result(op), args, op=op)]


def _constant_ints(lz: Legalizer, scope: _Scope, name: str, op: Operation) -> list[int]:
    """The values of an operand that must be a constant (a dynamic op's shape, sizes or padding)."""
    definition = scope.definition(name)
    value = definition.attributes.get("value") if definition is not None else None
    if definition is None or definition.short_name != "constant" or not isinstance(value, Dense):
        raise lz._error(op, f"{op.name} with {name} not a constant (a dynamic shape) is not supported")
    return [int(v) for v in dense_array(value).reshape(-1)]


@rule("dynamic_broadcast_in_dim", "dynamic_reshape", "dynamic_iota")
def dynamic_shaped(lz, comp, op, args, scope):
    """A dynamic op whose result type is static is its static op; the shape operand only
    repeats the result type."""
    kind = _tensor(op)
    if op.short_name == "dynamic_iota":
        return [lz._emit(comp, "iota", kind, [], [f"iota_dimension={_ints(op, 'dim', 'iota_dimension')[0]}"], op)]
    if op.short_name == "dynamic_reshape":
        return [lz._emit(comp, "reshape", kind, args[:1], op=op)]
    return broadcast_in_dim(lz, comp, op, args[:1], scope)


@rule("dynamic_pad")
def dynamic_pad(lz, comp, op, args, scope):
    low, high, interior = (_constant_ints(lz, scope, n, op) for n in op.operands[2:5])
    op.attributes.update(low=low, high=high, interior=interior)
    return pad(lz, comp, op, args[:2], scope)


@rule("dynamic_gather")
def dynamic_gather(lz, comp, op, args, scope):
    op.attributes["slice_sizes"] = _constant_ints(lz, scope, op.operands[2], op)
    return gather(lz, comp, op, args[:2], scope)


@rule("dynamic_conv")
def dynamic_conv(lz, comp, op, args, scope):
    op.attributes["padding"] = _constant_ints(lz, scope, op.operands[2], op)
    return convolution(lz, comp, op, args[:2], scope)


@rule("get_dimension_size")
def get_dimension_size(lz, comp, op, args, scope):
    """Shapes are static: the size is a constant."""
    size = args[0].type.dims[_ints(op, "dim", "dimension")[0]] if isinstance(args[0].type, TensorType) else 0
    return [lz._emit(comp, "constant", _result(op), [], op=op, literal=str(size))]


@rule("map")
def map_(lz, comp, op, args, scope):
    function = lz.scalar_region(op.regions[0], "mapped", scope, op)
    return [lz._emit(comp, "map", _result(op), args, [f"dimensions={_braces(_ints(op, 'dimensions'))}",
                                                      f"to_apply=%{function}"], op)]


@rule("square")
def square(lz, comp, op, args, scope):
    return [lz._emit(comp, "multiply", _result(op), [args[0], args[0]], op=op)]


@rule("select", "clamp")
def select_or_clamp(lz, comp, op, args, scope):
    kind = _tensor(op)
    if op.short_name == "select":
        pred = lz._broadcast_to(comp, args[0], TensorType("pred", kind.dims), op)
        args = [pred, lz._broadcast_to(comp, args[1], kind, op), lz._broadcast_to(comp, args[2], kind, op)]
    else:
        args = [lz._broadcast_to(comp, a, kind, op) for a in args]
    return [lz._emit(comp, op.short_name, kind, args, op=op)]


@rule("constant")
def constant(lz, comp, op, args, scope):
    dense = op.attributes.get("value")
    if not isinstance(dense, Dense):
        raise lz._error(op, "a constant needs a dense<...> value")
    try:
        array = dense_array(dense)
    except ValueError as e:
        raise lz._error(op, f"this constant cannot be read: {e}") from None
    kind = dense.type
    if kind.rank and array.size and is_splat(dense):  # one value for the whole shape: a scalar, broadcast
        scalar = lz._emit(comp, "constant", kind.scalar(), [], op=op, literal=literal_text(array.reshape(-1)[:1].reshape(())))
        return [lz._emit(comp, "broadcast", kind, [scalar], ["dimensions={}"], op)]
    return [lz._emit(comp, "constant", kind, [], op=op, literal=literal_text(array))]


@rule("iota")
def iota(lz, comp, op, args, scope):
    return [lz._emit(comp, "iota", _result(op), [], [f"iota_dimension={_ints(op, 'dim', 'iota_dimension')[0]}"], op)]


@rule("broadcast_in_dim")
def broadcast_in_dim(lz, comp, op, args, scope):
    """StableHLO may stretch a size-1 dimension to any size; HLO's broadcast only adds
    dimensions. So the stretched ones are reshaped away first, as XLA's conversion does. One
    that only adds size-1 dimensions moves no data: it is a reshape, as XLA writes it."""
    kind, operand = _tensor(op), args[0]
    dims = _ints(op, "dims", "broadcast_dimensions")
    sizes = operand.type.dims if isinstance(operand.type, TensorType) else ()
    if dims == sorted(dims) and all(sizes[i] == kind.dims[d] for i, d in enumerate(dims)) and \
            all(kind.dims[d] == 1 for d in range(kind.rank) if d not in dims):
        return [lz._emit(comp, "reshape", kind, [operand], op=op)]  # only size-1 dimensions added
    kept = [i for i, d in enumerate(dims) if not (sizes[i] == 1 and kind.dims[d] != 1)]
    if len(kept) != len(dims):
        squeezed = TensorType(_element(operand.type), tuple(sizes[i] for i in kept))
        operand = lz._emit(comp, "reshape", squeezed, [operand], op=op)
        dims = [dims[i] for i in kept]
    return [lz._emit(comp, "broadcast", kind, [operand], [f"dimensions={_braces(dims)}"], op)]


@rule("broadcast")
def broadcast(lz, comp, op, args, scope):
    """The old broadcast: new dimensions in front (`broadcast_sizes`)."""
    kind = _tensor(op)
    operand_rank = len(args[0].type.dims) if isinstance(args[0].type, TensorType) else 0
    dims = list(range(kind.rank - operand_rank, kind.rank))
    return [lz._emit(comp, "broadcast", kind, args, [f"dimensions={_braces(dims)}"], op)]


@rule("transpose")
def transpose(lz, comp, op, args, scope):
    dims = _ints(op, "dims", "permutation")
    return [lz._emit(comp, "transpose", _result(op), args, [f"dimensions={_braces(dims)}"], op)]


@rule("reverse")
def reverse(lz, comp, op, args, scope):
    dims = _ints(op, "dims", "dimensions")
    return [lz._emit(comp, "reverse", _result(op), args, [f"dimensions={_braces(dims)}"], op)]


@rule("slice")
def slice_(lz, comp, op, args, scope):
    starts, limits = _ints(op, "start_indices"), _ints(op, "limit_indices")
    strides = _ints(op, "strides", default=[1] * len(starts))
    spans = ", ".join(f"[{s}:{e}{'' if st == 1 else f':{st}'}]" for s, e, st in zip(starts, limits, strides))
    return [lz._emit(comp, "slice", _result(op), args, [f"slice={{{spans}}}"], op)]


@rule("dynamic_slice")
def dynamic_slice(lz, comp, op, args, scope):
    sizes = _ints(op, "sizes", "slice_sizes")
    return [lz._emit(comp, "dynamic-slice", _result(op), args, [f"dynamic_slice_sizes={_braces(sizes)}"], op)]


@rule("dynamic_update_slice")
def dynamic_update_slice(lz, comp, op, args, scope):
    return [lz._emit(comp, "dynamic-update-slice", _result(op), args, op=op)]


@rule("concatenate")
def concatenate(lz, comp, op, args, scope):
    dim = _ints(op, "dim", "dimension")[0]
    return [lz._emit(comp, "concatenate", _result(op), args, [f"dimensions={{{dim}}}"], op)]


@rule("pad")
def pad(lz, comp, op, args, scope):
    low = _ints(op, "low", "edge_padding_low")
    high = _ints(op, "high", "edge_padding_high")
    interior = _ints(op, "interior", "interior_padding", default=[0] * len(low))
    spec = "x".join(f"{lo}_{hi}" + (f"_{i}" if i else "") for lo, hi, i in zip(low, high, interior))
    return [lz._emit(comp, "pad", _result(op), args, [f"padding={spec or '{}'}"], op)]


@rule("compare")
def compare(lz, comp, op, args, scope):
    attrs = [f"direction={_enum(op.attributes['comparison_direction'])}"]
    if _enum(op.attributes.get("compare_type", "")) == "TOTALORDER":
        attrs.append("type=TOTALORDER")
    return [lz._emit(comp, "compare", _result(op), args, attrs, op)]


@rule("dot_general", "dot")
def dot(lz, comp, op, args, scope):
    if op.short_name == "dot":
        lhs_rank = len(args[0].type.dims) if isinstance(args[0].type, TensorType) else 1
        batch, contracting = ([], []), ([lhs_rank - 1], [0])
    elif "dot_dimension_numbers" in op.attributes:
        numbers = op.attributes["dot_dimension_numbers"]
        batch = (_as_ints(numbers.get("lhs_batching_dimensions", [])), _as_ints(numbers.get("rhs_batching_dimensions", [])))
        contracting = (_as_ints(numbers.get("lhs_contracting_dimensions", [])),
                       _as_ints(numbers.get("rhs_contracting_dimensions", [])))
    else:
        batch = op.attributes.get("batching_dims", ([], []))
        contracting = op.attributes.get("contracting_dims", ([], []))
    attrs = []
    if batch[0]:
        attrs += [f"lhs_batch_dims={_braces(batch[0])}", f"rhs_batch_dims={_braces(batch[1])}"]
    attrs += [f"lhs_contracting_dims={_braces(contracting[0])}", f"rhs_contracting_dims={_braces(contracting[1])}"]
    precision = [_enum(p) for p in op.attributes.get("precision", op.attributes.get("precision_config", []))]
    if any(p != "DEFAULT" for p in precision):
        attrs.append("operand_precision={" + ",".join(p.lower() for p in precision) + "}")
    return [lz._emit(comp, "dot", _result(op), args, attrs, op)]


def _window(sizes: list[int], strides: list[int] | None = None, padding: list[list[int]] | None = None,
            lhs_dilation: list[int] | None = None, rhs_dilation: list[int] | None = None,
            reversal: list[bool] | None = None) -> str:
    """HLO's window attribute; fields that hold their default are left out, as XLA prints it."""
    n = len(sizes)
    fields = [f"size={'x'.join(map(str, sizes))}"]
    if strides and any(s != 1 for s in strides):
        fields.append("stride=" + "x".join(map(str, strides)))
    if padding and any(p != [0, 0] for p in padding):
        fields.append("pad=" + "x".join(f"{lo}_{hi}" for lo, hi in padding))
    if lhs_dilation and any(d != 1 for d in lhs_dilation):
        fields.append("lhs_dilate=" + "x".join(map(str, lhs_dilation)))
    if rhs_dilation and any(d != 1 for d in rhs_dilation):
        fields.append("rhs_dilate=" + "x".join(map(str, rhs_dilation)))
    if reversal and any(reversal):
        fields.append("rhs_reversal=" + "x".join("1" if r else "0" for r in reversal))
    return "window={" + " ".join(fields) + "}" if n else "window={}"


def _padding(op: Operation, rank: int) -> list[list[int]]:
    value = op.attributes.get("padding")
    if value is None:
        return [[0, 0]] * rank
    flat = _as_ints(value) if not isinstance(value, list) or not value or not isinstance(value[0], list) else \
        [int(v) for pair in value for v in pair]
    return [flat[i : i + 2] for i in range(0, len(flat), 2)]


def _bools(value) -> list[bool]:
    if isinstance(value, Dense):
        return [bool(v) for v in dense_array(value).reshape(-1)]
    return [bool(v) for v in (value or [])]


def _conv_labels(numbers) -> str:
    """`[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` (or the raw fields) as HLO's `b01f_01io->b01f`."""
    if "compact" in numbers:
        lhs, _, out = numbers["compact"].partition("->")
        lhs, _, rhs = lhs.partition("x")
        return "_".join("".join(c for c in part if c.isalnum()) for part in (lhs, rhs)) + "->" + \
            "".join(c for c in out if c.isalnum())

    def labels(batch, feature, spatial, names) -> str:
        rank = 2 + len(spatial)
        out = [""] * rank
        out[batch], out[feature] = names
        for i, d in enumerate(spatial):
            out[d] = str(i)
        return "".join(out)

    g = lambda k: _as_ints(numbers.get(k, []))  # noqa: E731
    return (labels(g("input_batch_dimension")[0], g("input_feature_dimension")[0], g("input_spatial_dimensions"), "bf")
            + "_" + labels(g("kernel_input_feature_dimension")[0], g("kernel_output_feature_dimension")[0],
                           g("kernel_spatial_dimensions"), "io")
            + "->" + labels(g("output_batch_dimension")[0], g("output_feature_dimension")[0],
                            g("output_spatial_dimensions"), "bf"))


@rule("convolution")
def convolution(lz, comp, op, args, scope):
    labels = _conv_labels(op.attributes["dimension_numbers"])
    kernel = labels.split("_")[1].split("->")[0]
    kernel_dims = args[1].type.dims if isinstance(args[1].type, TensorType) else ()
    spatial = len(kernel) - 2
    sizes = [kernel_dims[kernel.index(str(i))] for i in range(spatial)]
    window = _window(sizes, _ints(op, "window_strides", default=[]), _padding(op, spatial),
                     _ints(op, "lhs_dilation", default=[]), _ints(op, "rhs_dilation", default=[]),
                     _bools(op.attributes.get("window_reversal")))
    attrs = [window, f"dim_labels={labels}"]
    for key in ("feature_group_count", "batch_group_count"):
        count = int(op.attributes.get(key, 1))
        if count != 1:
            attrs.append(f"{key}={count}")
    return [lz._emit(comp, "convolution", _result(op), args, attrs, op)]


def _multi(lz: Legalizer, comp: _Computation, op: Operation, opcode: str, args: list[HloValue], attrs: list[str]
           ) -> list[HloValue]:
    """An HLO instruction for an operation with one result, or a tuple taken apart for several."""
    if len(op.result_types) == 1:
        return [lz._emit(comp, opcode, op.result_types[0], args, attrs, op)]
    whole = lz._emit(comp, opcode, TupleType(tuple(op.result_types)), args, attrs, op)
    return lz._tuple_parts(comp, whole, op)


@rule("reduce")
def reduce(lz, comp, op, args, scope):
    dims = _ints(op, "dimensions")
    if "applies" in op.attributes:  # the short form: `applies stablehlo.add`
        reducer = _binary_reducer(lz, op, op.attributes["applies"], [t for t in op.result_types])
    else:
        reducer = lz.scalar_region(op.regions[0], "reducer", scope, op)
    return _multi(lz, comp, op, "reduce", args, [f"dimensions={_braces(dims)}", f"to_apply=%{reducer}"])


def _binary_reducer(lz: Legalizer, op: Operation, applies: str, result_types: list[Type]) -> str:
    short = applies.partition(".")[2] or applies
    opcode = ELEMENTWISE.get(short)
    if opcode is None:
        raise lz._error(op, f"a reduce that applies {applies} is not supported")
    comp = _Computation(lz._unique(f"{opcode}_reducer"))
    scalars = [TensorType(_element(t), ()) for t in result_types]
    accumulators = [lz._parameter(comp, t, "accumulator") for t in scalars]
    elements = [lz._parameter(comp, t, "element") for t in scalars]
    results = [lz._emit(comp, opcode, t, [a, e], op=op) for t, a, e in zip(scalars, accumulators, elements)]
    lz._finish(comp, results, op=op)
    return comp.name


@rule("reduce_window")
def reduce_window(lz, comp, op, args, scope):
    sizes = _ints(op, "window_dimensions")
    window = _window(sizes, _ints(op, "window_strides", default=[]), _padding(op, len(sizes)),
                     _ints(op, "base_dilations", default=[]), _ints(op, "window_dilations", default=[]))
    reducer = lz.scalar_region(op.regions[0], "reducer", scope, op)
    return _multi(lz, comp, op, "reduce-window", args, [window, f"to_apply=%{reducer}"])


@rule("select_and_scatter")
def select_and_scatter(lz, comp, op, args, scope):
    sizes = _ints(op, "window_dimensions")
    window = _window(sizes, _ints(op, "window_strides", default=[]), _padding(op, len(sizes)))
    select = lz.scalar_region(op.regions[0], "select", scope, op)
    scatter = lz.scalar_region(op.regions[1], "scatter", scope, op)
    return [lz._emit(comp, "select-and-scatter", _result(op), args, [window, f"select=%{select}",
                                                                        f"scatter=%{scatter}"], op)]


@rule("sort")
def sort(lz, comp, op, args, scope):
    dimension = int(op.attributes.get("dimension", -1))
    if dimension < 0:
        dimension += len(_tensor(op).dims)
    comparator = lz.scalar_region(op.regions[0], "comparator", scope, op)
    attrs = [f"dimensions={{{dimension}}}"]
    if op.attributes.get("is_stable"):
        attrs.append("is_stable=true")
    return _multi(lz, comp, op, "sort", args, attrs + [f"to_apply=%{comparator}"])


def _numbers(op: Operation, key: str) -> dict:
    numbers = op.attributes.get(key, {})
    return numbers if isinstance(numbers, dict) else {}


@rule("gather")
def gather(lz, comp, op, args, scope):
    n = _numbers(op, "dimension_numbers")
    g = lambda k: _as_ints(n.get(k, []))  # noqa: E731
    attrs = [f"offset_dims={_braces(g('offset_dims'))}", f"collapsed_slice_dims={_braces(g('collapsed_slice_dims'))}",
             f"start_index_map={_braces(g('start_index_map'))}", f"index_vector_dim={int(n.get('index_vector_dim', 0))}",
             f"slice_sizes={_braces(_ints(op, 'slice_sizes'))}"]
    if g("operand_batching_dims"):
        attrs += [f"operand_batching_dims={_braces(g('operand_batching_dims'))}",
                  f"start_indices_batching_dims={_braces(g('start_indices_batching_dims'))}"]
    if op.attributes.get("indices_are_sorted"):
        attrs.append("indices_are_sorted=true")
    return [lz._emit(comp, "gather", _result(op), args, attrs, op)]


@rule("scatter")
def scatter(lz, comp, op, args, scope):
    n = _numbers(op, "scatter_dimension_numbers")
    g = lambda k: _as_ints(n.get(k, []))  # noqa: E731
    attrs = [f"update_window_dims={_braces(g('update_window_dims'))}",
             f"inserted_window_dims={_braces(g('inserted_window_dims'))}",
             f"scatter_dims_to_operand_dims={_braces(g('scatter_dims_to_operand_dims'))}",
             f"index_vector_dim={int(n.get('index_vector_dim', 0))}"]
    if g("input_batching_dims"):
        attrs += [f"input_batching_dims={_braces(g('input_batching_dims'))}",
                  f"scatter_indices_batching_dims={_braces(g('scatter_indices_batching_dims'))}"]
    for flag in ("indices_are_sorted", "unique_indices"):
        if op.attributes.get(flag):
            attrs.append(f"{flag}=true")
    combiner = lz.scalar_region(op.regions[0], "combiner", scope, op)
    return _multi(lz, comp, op, "scatter", args, attrs + [f"to_apply=%{combiner}"])


@rule("while")
def while_(lz, comp, op, args, scope):
    """MLIR's loop carries N values; HLO's carries one tuple. Values the regions use from
    outside ride along in the tuple, unchanged."""
    condition, body = op.regions
    captured = free_values([condition, body])
    carried = [a.type for a in args]
    cond_name = lz.tuple_region(condition, "while_condition", carried, captured, scope, op, pass_through=False)
    body_name = lz.tuple_region(body, "while_body", carried, captured, scope, op, pass_through=True)
    values = args + [lz._use(scope, name, op) for name in captured]
    init = lz._emit(comp, "tuple", TupleType(tuple(v.type for v in values)), values, op=op)
    loop = lz._emit(comp, "while", init.type, [init], [f"condition=%{cond_name}", f"body=%{body_name}"], op)
    return lz._tuple_parts(comp, loop, op)[: len(args)]


@rule("case", "if")
def case(lz, comp, op, args, scope):
    """Each branch gets the values it uses from outside as one tuple operand."""
    branches, operands = [], []
    for i, region in enumerate(op.regions):
        captured = free_values([region])
        branches.append(lz.tuple_region(region, f"branch_{i}", [], captured, scope, op, pass_through=False))
        values = [lz._use(scope, name, op) for name in captured]
        operands.append(lz._emit(comp, "tuple", TupleType(tuple(v.type for v in values)), values, op=op))
    if op.short_name == "if":
        attrs = [f"true_computation=%{branches[0]}", f"false_computation=%{branches[1]}"]
    else:
        attrs = ["branch_computations={" + ", ".join(f"%{b}" for b in branches) + "}"]
    return _multi(lz, comp, op, "conditional", [args[0], *operands], attrs)


@rule("call")
def call(lz, comp, op, args, scope):
    callee = op.attributes["callee"]
    name = callee.name if isinstance(callee, Symbol) else str(callee)
    function = lz.mlir.functions.get(name)
    if function is None:
        raise lz._error(op, f"{op.name} calls @{name}, which this module does not define")
    computation = lz._function(function)
    return _multi(lz, comp, op, "call", args, [f"to_apply=%{computation}"])


@rule("composite")
def composite(lz, comp, op, args, scope):
    """A named group of operations (`stablehlo.composite "my.gelu"`): what it stands for is its
    decomposition function, which XLA calls when nothing matches the name."""
    decomposition = op.attributes.get("decomposition")
    if not isinstance(decomposition, Symbol):
        raise lz._error(op, "a composite needs its decomposition = @function")
    lz.notes.append(f"composite {op.attributes.get('name', '?')}: its decomposition @{decomposition.name}")
    op.attributes["callee"] = decomposition
    return call(lz, comp, op, args, scope)


@rule("tuple")
def tuple_(lz, comp, op, args, scope):
    return [lz._emit(comp, "tuple", TupleType(tuple(a.type for a in args)), args, op=op)]


@rule("get_tuple_element")
def get_tuple_element(lz, comp, op, args, scope):
    return [lz._emit(comp, "get-tuple-element", _result(op), args, [f"index={int(op.attributes['index'])}"], op)]


@rule("optimization_barrier")
def optimization_barrier(lz, comp, op, args, scope):
    whole = lz._emit(comp, "tuple", TupleType(tuple(a.type for a in args)), args, op=op)
    barrier = lz._emit(comp, "opt-barrier", whole.type, [whole], op=op)
    return lz._tuple_parts(comp, barrier, op)


# Custom calls that stand for an operation HLO has (torch_xla writes `@mhlo.erf` for GELU's erf).
_CUSTOM_CALL_OPCODES = {"mhlo.erf": "erf", "mhlo.tan": "tan"}


@rule("custom_call")
def custom_call(lz, comp, op, args, scope):
    target = op.attributes.get("call_target_name", "")
    if target in _CUSTOM_CALL_OPCODES:
        return [lz._emit(comp, _CUSTOM_CALL_OPCODES[target], _result(op), args, op=op)]
    attrs = [f'custom_call_target="{target}"']
    config = op.attributes.get("backend_config")
    if isinstance(config, str) and config:
        attrs.append('backend_config="' + config.replace("\\", "\\\\").replace('"', '\\"') + '"')
    if op.attributes.get("has_side_effect"):
        attrs.append("custom_call_has_side_effect=true")
    return _multi(lz, comp, op, "custom-call", args, attrs)


@rule("rng_bit_generator")
def rng_bit_generator(lz, comp, op, args, scope):
    algorithm = {"DEFAULT": "rng_default", "THREE_FRY": "rng_three_fry", "PHILOX": "rng_philox"}[
        _enum(op.attributes.get("algorithm", op.attributes.get("rng_algorithm", Enum("DEFAULT"))))]
    return _multi(lz, comp, op, "rng-bit-generator", args, [f"algorithm={algorithm}"])


@rule("top_k")
def top_k(lz, comp, op, args, scope):
    return _multi(lz, comp, op, "topk", args, [f"k={int(op.attributes['k'])}", "largest=true"])


@rule("cholesky")
def cholesky(lz, comp, op, args, scope):
    lower = bool(op.attributes.get("lower", False))
    return [lz._emit(comp, "cholesky", _result(op), args, [f"lower={'true' if lower else 'false'}"], op)]


@rule("triangular_solve")
def triangular_solve(lz, comp, op, args, scope):
    flags = [f"{k}={'true' if op.attributes.get(k) else 'false'}" for k in ("left_side", "lower", "unit_diagonal")]
    transpose_a = _enum(op.attributes.get("transpose_a", Enum("NO_TRANSPOSE")))
    return [lz._emit(comp, "triangular-solve", _result(op), args, flags + [f"transpose_a={transpose_a}"], op)]


@rule("fft")
def fft(lz, comp, op, args, scope):
    kind = _enum(op.attributes.get("type", op.attributes.get("fft_type", Enum("FFT"))))
    lengths = _ints(op, "length", "fft_length")
    return [lz._emit(comp, "fft", _result(op), args, [f"fft_type={kind}", f"fft_length={_braces(lengths)}"], op)]


@rule("batch_norm_training", "batch_norm_inference", "batch_norm_grad")
def batch_norm(lz, comp, op, args, scope):
    attrs = [f"epsilon={float(op.attributes['epsilon'])!r}", f"feature_index={int(op.attributes['feature_index'])}"]
    return _multi(lz, comp, op, op.short_name.replace("_", "-"), args, attrs)


@rule("reduce_precision")
def reduce_precision(lz, comp, op, args, scope):
    if "format" in op.attributes:  # e5m10
        text = _enum(op.attributes["format"])
        exponent, mantissa = text[1:].split("m")
    else:
        exponent, mantissa = op.attributes["exponent_bits"], op.attributes["mantissa_bits"]
    return [lz._emit(comp, "reduce-precision", _result(op), args,
                     [f"exponent_bits={int(exponent)}", f"mantissa_bits={int(mantissa)}"], op)]


@rule("partition_id", "replica_id")
def device_id(lz, comp, op, args, scope):
    return [lz._emit(comp, op.short_name.replace("_", "-"), _result(op), [], op=op)]


@rule("after_all", "create_token")
def after_all(lz, comp, op, args, scope):
    return [lz._emit(comp, "after-all", _result(op), args, op=op)]


def _hlo_name(name: str) -> str:
    """A name HLO text accepts: letters, digits, `_`, `.` and `-`, not starting with a digit."""
    cleaned = "".join(c if c.isalnum() or c in "_-" else "_" for c in name) or "f"
    return cleaned if not cleaned[0].isdigit() else f"v{cleaned}"


def legalize(mlir: MlirModule) -> Legalized:
    """The HLO text of `mlir`, and where each of its instructions came from."""
    return Legalizer(mlir).run()


__all__ = ["Legalized", "LegalizationError", "Link", "legalize", "free_values"]
