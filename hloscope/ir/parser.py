"""The HLO text parser: XLA's grammar (xla/hlo/parser/hlo_parser.cc), into hloscope's IR.

    module      ::= 'HloModule' name (',' attr)* stack_frames? computation+
    computation ::= 'ENTRY'? name ('(' params ')' '->' shape)? '{' instruction+ '}'
    instruction ::= 'ROOT'? name '=' shape opcode '(' operands ')' (',' attr '=' value)*

Like XLA's parser it checks syntax and names only; shapes are the verifier's job. Unlike
XLA's, it keeps attributes it does not interpret as raw text, so nothing is dropped, and it
never evaluates anything it reads. Every error carries line, column and a caret.
"""

from __future__ import annotations

import re as _re
from dataclasses import dataclass, field

from ..errors import HloParseError, HloVerifierError
from ..gc_pause import collector_paused
from .mlir_text import mlir_form
from .save_tensors import is_save_tensors_file, save_tensors_graphs
from .attributes import (
    AttrValue, Metadata, MetadataValue, ModuleAttrValue, PadDim, ProgramShape, Raw, SliceDim, WindowDim,
)
from .alias_checks import subshape
from .async_chains import async_chain_problems
from .aliasing import InputOutputAlias, parse_buffer_donor, parse_input_output_alias
from .custom_call_attrs import CUSTOM_CALL_ENUMS, constraint_count_problem
from .layout_tail import check_layout_tail
from .xla_attributes import allowed_attributes
from .result_accuracy import RESULT_ACCURACY_OPS, parse_result_accuracy
from .computation import Computation
from .conv_dims import ConvDimLabels, parse_dim_labels
from .instruction import Instruction
from .literals import parse_literal
from .module import HloModule, StackFrames
from .replica_groups import parse_replica_groups, parse_source_target_pairs
from .opcodes import COMPARISON_DIRECTIONS, COMPARISON_ORDERS, COMPARISON_TYPES, COMPUTATION_ATTRS, FFT_TYPES, FUSION_KINDS, OPCODES, TRANSPOSE_KINDS
from .scanner import NAME, STRING, Scanner, _unescape
from .shape_inference import infer_shape
from .shape import ArrayShape, Shape, TokenShape, TupleShape, default_layout
from .dtypes import ELEMENT_TYPES

INT_LIST_ATTRS = frozenset(
    "dimensions lhs_batch_dims lhs_contracting_dims rhs_batch_dims rhs_contracting_dims offset_dims "
    "collapsed_slice_dims start_index_map slice_sizes update_window_dims inserted_window_dims "
    "scatter_dims_to_operand_dims dynamic_slice_sizes operand_batching_dims "
    "start_indices_batching_dims input_batching_dims scatter_indices_batching_dims fft_length".split()
)
INT_ATTRS = frozenset(
    "index iota_dimension index_vector_dim inferred_dimension exponent_bits mantissa_bits "
    "feature_index feature_group_count batch_group_count k channel_id split_dimension delta num_carries".split()
)
BOOL_ATTRS = frozenset(
    "is_stable indices_are_sorted unique_indices largest use_global_device_ids constrain_layout "
    "is_host_transfer lower left_side unit_diagonal is_reverse is_associative has_dynamic_root".split()
)
ENUM_ATTRS = {"direction": COMPARISON_DIRECTIONS, "type": COMPARISON_TYPES, "order": COMPARISON_ORDERS, "kind": FUSION_KINDS,
              "fft_type": FFT_TYPES, "transpose_a": TRANSPOSE_KINDS, **CUSTOM_CALL_ENUMS}
# Attributes XLA's parser requires of an opcode ("attribute X is expected but not seen").
REQUIRED_ATTRS = {
    "all-reduce": ("to_apply",), "all-reduce-start": ("to_apply",), "reduce-scatter": ("to_apply", "dimensions"),
    "all-gather": ("dimensions",), "all-gather-start": ("dimensions",),
    "collective-permute": ("source_target_pairs",), "collective-permute-start": ("source_target_pairs",),
    "async-start": ("calls",), "fft": ("fft_type", "fft_length"),
    "batch-norm-training": ("epsilon", "feature_index"), "batch-norm-inference": ("epsilon", "feature_index"),
    "batch-norm-grad": ("epsilon", "feature_index"), "rng-get-and-update-state": ("delta",),
    "scan": ("dimensions", "num_carries", "to_apply"),
    "broadcast": ("dimensions",), "call": ("to_apply",), "compare": ("direction",), "concatenate": ("dimensions",),
    "convolution": ("dim_labels",), "custom-call": ("custom_call_target",), "domain": ("domain",),
    "dynamic-slice": ("dynamic_slice_sizes",), "fusion": ("calls", "kind"), "get-tuple-element": ("index",),
    "gather": ("collapsed_slice_dims", "index_vector_dim", "offset_dims", "slice_sizes", "start_index_map"),
    "iota": ("iota_dimension",), "map": ("to_apply",), "pad": ("padding",), "reduce": ("dimensions", "to_apply"),
    "reduce-precision": ("exponent_bits", "mantissa_bits"), "reduce-window": ("to_apply",), "reverse": ("dimensions",),
    "rng": ("distribution",), "rng-bit-generator": ("algorithm",),
    "scatter": ("index_vector_dim", "inserted_window_dims", "scatter_dims_to_operand_dims", "to_apply",
                "update_window_dims"),
    "select-and-scatter": ("scatter", "select"), "slice": ("slice",), "sort": ("dimensions", "to_apply"),
    "topk": ("k",), "transpose": ("dimensions",), "while": ("body", "condition"),
}
# A constant's values are the one thing reading text allocates: one past this many elements
# is refused (a declared shape alone allocates nothing, so any size reads; the evaluator and
# the backends refuse what they cannot allocate, where they would).
MAX_ELEMENTS = 1 << 31
MAX_TUPLE_DEPTH = 64  # deeper tuple shapes are refused rather than risking Python's recursion limit
MAX_RANK = 64  # numpy's limit: an array of higher rank could not be evaluated, passed or returned


def parse_hlo(text: str | bytes, *, max_elements: int = MAX_ELEMENTS, memo: ParseMemo | None = None,
              allow_unknown_attributes: bool = False) -> HloModule:
    """Parse a module in XLA's HLO text syntax. Raises HloParseError with line, column and caret.

    `memo` (one ParseMemo passed to several calls) reuses what an identical text gave before.
    An attribute XLA (jaxlib 0.10.2) does not allow on its opcode is an error, as in XLA;
    `allow_unknown_attributes=True` keeps such attributes verbatim instead (a dump from a newer
    XLA may carry attributes this one does not know)."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as e:
            line = text.count(b"\n", 0, e.start) + 1
            line_start = text.rfind(b"\n", 0, e.start) + 1
            shown = text[line_start : e.start].decode("utf-8", "replace") + "\ufffd"
            raise HloParseError(
                f"HLO text is not valid UTF-8 (byte 0x{text[e.start]:02x})", line, e.start - line_start + 1, shown
            ) from None
    with collector_paused():
        try:
            return _ModuleParser(text, max_elements, memo, allow_unknown_attributes).module()
        except HloParseError as e:
            if is_save_tensors_file(text):
                count = len(save_tensors_graphs(text))
                raise HloParseError(
                    f"this is torch_xla's save-tensors file ({count} graphs), not one HLO module: "
                    "hloscope.ir.save_tensors.save_tensors_graphs(text) gives each graph's module text", e.line, e.column,
                    e.source_line) from None
            mlir = mlir_form(text)  # looked for only on failure: HLO text pays nothing
            if mlir is None:
                raise
    dialect, form, number = mlir
    line = text.splitlines()[number - 1]
    raise HloParseError(f"this is {dialect} MLIR text ({form} form), not HLO text: hloscope.parse_hlo reads both "
                        "(hloscope.stablehlo legalizes it), hloscope.ir.parse_hlo only HLO",
                        number, len(line) - len(line.lstrip()) + 1, line)


def parse_shape(text: str) -> Shape:
    """Parse one shape such as `f32[8,128]{1,0}` or `(f32[], s32[4])`."""
    p = _ModuleParser(text, MAX_ELEMENTS)
    shape = p.shape()
    if not p.s.at_end():
        p.s.fail(f"unexpected text after the shape: {p.s.describe_here()}")
    return shape


@dataclass
class ParseMemo:
    """What parsing a run of snapshots of one module (XLA's per-pass dumps) can share: most
    computations, and most instruction lines of the rest, repeat word for word, and IR values
    are immutable, so an identical text gives the same value. Keyed by exact text; each entry
    also keeps the names the text refers to, so the checks of a module still run."""

    # text -> (computation, (computation it calls, offset in the text))
    computations: dict[str, tuple[Computation, tuple[tuple[str, int], ...]]] = field(default_factory=dict)
    # line -> (is ROOT, instruction, (operand, offset in the line), (computation it calls, offset))
    instructions: dict[str, tuple[bool, Instruction, tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]] = (
        field(default_factory=dict))


class _ModuleParser:
    def __init__(self, text: str, max_elements: int, memo: ParseMemo | None = None,
                 allow_unknown_attributes: bool = False):
        self.s = Scanner(text)
        self.allow_unknown_attributes = allow_unknown_attributes
        self.max_elements = max_elements
        self.memo = memo
        self.computation_refs: list[tuple[str, int]] = []  # (name, position) to resolve at the end
        self.shape_cache: dict[str, Shape] = {}
        self.tuple_depth = 0
        # Instructions written inline as operands (`add(p, f32[] constant(1))`), waiting to be
        # placed before the instruction that uses them, with their operand positions.
        self.nested: list[tuple[Instruction, list]] = []
        self.anonymous: dict[str, int] = {}
        # `name#k` operands (XLA's dumps since jax 0.12: element k of a tuple-shaped
        # instruction) become get-tuple-elements: one per (name, k) in a computation, made
        # from the shapes of the instructions read so far there.
        self.shapes_here: dict[str, Shape] = {}
        self.elements: dict[tuple[str, int], str] = {}
        self.element_uses: list[tuple[str, int]] = []  # every `name#k` read (a line with one is not remembered)
        # Computations XLA's async shorthand implies (`negate-start(p)` wraps a negate), to be
        # placed before the computation that calls them.
        self.implied: list[Computation] = []
        # Operands written with their shape (`negate(f32[2] a)`): (name, shape, position), checked
        # against the operand's own shape once the computation is read, as XLA's parser does.
        self.typed_operands: list[tuple[str, Shape, int]] = []
        # custom-call's operand_layout_constraints, checked the same way: (operand, shape, position).
        self.constrained_operands: list[tuple[str, Shape, int]] = []
        self.constraints: tuple[list[Shape], int] | None = None  # the last instruction's, while it is read
        self.computations_read: dict[str, Computation] = {}  # for inferring the shape of a call
        self.inferences = 0  # shapes inferred so far (such a line depends on more than itself)
        self.wrapped_opcodes: dict[str, str] = {}  # `X-update` / `X-done` instruction -> X
        self.inline_count = 0  # computations written inline so far
        self.predecessor_refs: list[tuple[str, int]] = []  # control-predecessors named here, and where
        # A single-instruction text: its operands, written with their shapes, become parameters.
        self.operands_as_parameters = False
        self.parameters: dict[str, Instruction] = {}

    # ---- module ----
    def module(self) -> HloModule:
        s = self.s
        if not self.module_follows():
            return self.single_instruction_module()
        name: str | None = None
        attrs: dict[str, ModuleAttrValue] = {}
        alias_pos = 0
        if s.keyword("HloModule"):
            name = s.name("the module name")
            s.accept(":")  # XLA's lexer takes `HloModule m:` too
            while s.accept(","):
                key = self.attr_key()
                alias_pos = s.pos if key == "input_output_alias" else alias_pos
                attrs[key] = self.module_attr(key)
        frames = self.stack_frames()
        comps: list[Computation] = []
        entry: str | None = None
        while not s.at_end():
            start = s.pos
            is_entry = s.keyword("ENTRY")
            comp = self.computation() if self.memo is None else self.remembered_computation(self.memo)
            comps.extend(self.implied)
            self.implied.clear()
            self.computations_read[comp.name] = comp
            if any(c.name == comp.name for c in comps):
                s.fail(f"computation {comp.name!r} is defined twice", start)
            if is_entry:
                if entry is not None:
                    s.fail("a module has only one ENTRY computation", start)
                entry = comp.name
            comps.append(comp)
        if not comps:
            s.fail("expected at least one computation")
        entry = entry or comps[-1].name
        names = {c.name for c in comps}
        for ref, pos in self.computation_refs:
            if ref not in names:
                s.fail(f"computation {ref!r} does not exist", pos)
        alias = attrs.get("input_output_alias")
        if isinstance(alias, InputOutputAlias):
            self.check_alias_outputs(alias, next(c for c in comps if c.name == entry), alias_pos)
        return HloModule(name or f"module_{entry}", tuple(comps), entry, attrs, frames)

    def module_follows(self) -> bool:
        """Whether the text is a module, as XLA's parser decides: it starts with `HloModule`,
        `ENTRY` or a stack frame table, or with a name followed by `{` (a computation);
        anything else is a single instruction."""
        s = self.s
        s.skip()
        m = NAME.match(s.text, s.pos)
        if s.at_end() or m is None or m.group(0) in ("HloModule", "ENTRY", "FileNames"):
            return True
        rest = Scanner(s.text)
        rest.pos = m.end()
        return rest.peek("{")

    def single_instruction_module(self) -> HloModule:
        """`name = shape opcode(shape %a, shape %b), attrs` alone (or `shape opcode(...)`): a
        module of one computation `_` whose parameters are the operands, as XLA's parser makes."""
        s = self.s
        if self.at_shape():
            name = "_"
        else:
            name = s.name("an instruction name")
            s.expect("=", "'=' after the instruction name")
        s.skip()
        shape = None if _opcode_follows(s) else self.shape()
        self.operands_as_parameters = True
        inst, _ = self.instruction_rest(name, shape)
        if not s.at_end():
            s.fail(f"expected the end of the text after the single instruction {name} "
                   "(a module of several starts with 'HloModule')")
        names = {c.name for c in self.implied}
        for ref, pos in self.computation_refs:
            if ref not in names:
                s.fail(f"computation {ref!r} does not exist (a single instruction can only call the "
                       "computations it writes inline)", pos)
        entry = Computation("_", (*self.parameters.values(), inst), inst.name)
        # XLA lays the module's interface out by default, whatever the operands' layouts
        layout = ProgramShape(tuple(_default_layouts(p.shape) for p in self.parameters.values()),
                              _default_layouts(inst.shape))
        return HloModule("_", (*self.implied, entry), "_", {"is_scheduled": True, "entry_computation_layout": layout})

    def check_alias_outputs(self, alias: InputOutputAlias, entry: Computation, pos: int) -> None:
        """An alias's output index must exist in the ENTRY's result (XLA checks this while parsing;
        the rest of the aliasing is the verifier's)."""
        result = entry[entry.root].shape
        for a in alias.aliases:
            if subshape(result, a.output_index) is None:
                index = "{" + ",".join(map(str, a.output_index)) + "}"
                self.s.fail(f"input_output_alias: output index {index} is not in the ENTRY's result {result}", pos)

    def attr_key(self) -> str:
        s = self.s
        s.skip()
        start = s.pos
        m = s.match(NAME)
        if not m or not s.accept("="):
            s.fail(f"expected an attribute such as 'name=value', found {s.describe_here()}", start)
        return m.group(1)

    def module_attr(self, key: str) -> ModuleAttrValue:
        s = self.s
        if key == "entry_computation_layout":
            s.expect("{")
            s.expect("(")
            params = self.shape_list(")")
            s.expect("->")
            result = self.shape()
            s.expect("}")
            return ProgramShape(tuple(params), result)
        if key == "is_scheduled":
            return self.boolean()
        if key == "input_output_alias":
            return parse_input_output_alias(s)
        if key == "buffer_donor":
            return parse_buffer_donor(s)
        return Raw(s.balanced())

    def boolean(self) -> bool:
        if self.s.keyword("true"):
            return True
        if self.s.keyword("false"):
            return False
        self.s.fail(f"expected true or false, found {self.s.describe_here()}")

    def stack_frames(self) -> StackFrames | None:
        s = self.s
        tables = {"FileNames": {}, "FunctionNames": {}, "FileLocations": {}, "StackFrames": {}}
        seen = False
        for title, table in tables.items():
            if not s.keyword(title):
                continue
            seen = True
            while (key := s.try_integer()) is not None:
                table[key] = s.string() if title in ("FileNames", "FunctionNames") else self.int_fields()
        if not seen:
            return None
        frames = {k: (v.get("file_location_id", 0), v.get("parent_frame_id", 0)) for k, v in tables["StackFrames"].items()}
        return StackFrames(tables["FileNames"], tables["FunctionNames"], tables["FileLocations"], frames)

    def int_fields(self) -> dict:
        s = self.s
        s.expect("{")
        fields = {}
        while not s.accept("}"):
            key = self.attr_key()
            fields[key] = s.integer()
        return fields

    # ---- computations ----
    def computation(self) -> Computation:
        s = self.s
        name = s.name("a computation name")
        declared_result: tuple[Shape, int] | None = None
        if s.accept("("):
            while not s.accept(")"):
                s.name("a parameter name")
                s.expect(":")
                self.shape()
                if not s.peek(")"):
                    s.expect(",", "',' or ')'")
            s.expect("->")
            s.skip()
            declared_result = (self.shape(), s.pos)
        return self.computation_body(name, declared_result)

    def computation_body(self, name: str, declared_result: tuple[Shape, int] | None = None) -> Computation:
        """`{ instructions }` (and a trailing `, execution_thread=...`), as computation `name`."""
        s = self.s
        s.expect("{", "'{' to start the computation's instructions")
        instructions: list[Instruction] = []
        root: str | None = None
        positions: dict[str, list] = {}
        self.shapes_here, self.elements = {}, {}
        starts: dict[str, int] = {}
        parameters: dict[int, str] = {}
        self.predecessor_refs = []
        while not s.accept("}"):
            if s.at_end():
                s.fail(f"computation {name!r} is not closed with '}}'")
            start = s.pos
            if self.memo is not None:
                is_root, inst, operand_positions = self.remembered_instruction(self.memo)
            else:
                is_root = s.keyword("ROOT")
                inst, operand_positions = self.instruction()
            for nested, nested_positions in self.nested:
                if nested.name in positions:
                    s.fail(f"instruction name {nested.name!r} is used twice in computation {name!r}", start)
                positions[nested.name] = nested_positions
                instructions.append(nested)
                self.shapes_here[nested.name] = nested.shape
            self.nested.clear()
            if inst.opcode == "parameter" and inst.parameter_number in parameters:
                s.fail(f"parameter number {inst.parameter_number} is used twice in computation {name!r} "
                       f"(by {parameters[inst.parameter_number]} and {inst.name})", start)
            if inst.opcode == "parameter" and inst.parameter_number is not None:
                parameters[inst.parameter_number] = inst.name
            if inst.name in positions:
                s.fail(f"instruction name {inst.name!r} is used twice in computation {name!r}", start)
            positions[inst.name] = operand_positions
            starts[inst.name] = start
            self.shapes_here[inst.name] = inst.shape
            if is_root:
                if root is not None:
                    s.fail(f"computation {name!r} has more than one ROOT", start)
                root = inst.name
            instructions.append(inst)
        if not instructions:
            s.fail(f"computation {name!r} has no instructions")
        self.check_operands(name, instructions, positions)
        for predecessor, pos in self.predecessor_refs:
            if predecessor not in positions:
                s.fail(f"control-predecessor {predecessor!r} does not exist in computation {name!r}", pos)
        self.check_typed_operands(instructions)
        self.check_constrained_operands(instructions)
        callees = {**self.computations_read, **{c.name: c for c in self.implied}}
        for inst_name, problem in async_chain_problems(instructions, callees, self.wrapped_opcodes):
            s.fail(problem, starts.get(inst_name))
        root_name = root or instructions[-1].name
        if declared_result is not None:
            root_shape = next(i.shape for i in instructions if i.name == root_name)
            if not _same_ignoring_layout(declared_result[0], root_shape):
                s.fail(f"computation {name} declares its result {declared_result[0]}, but its root {root_name} is "
                       f"{root_shape}", declared_result[1])
        thread = None
        if s.peek(",") and s.text.startswith("execution_thread", _after_comma(s)):
            s.accept(",")
            self.attr_key()
            thread = s.string()
        return Computation(name, tuple(instructions), root_name, thread)

    def remembered_computation(self, memo: ParseMemo) -> Computation:
        """A computation parsed before from the same text, else parsed and remembered. Its
        text runs to the `}` XLA's printer puts at the start of a line, and that line's end;
        it is remembered only when the parser ended there."""
        s = self.s
        s.skip()
        start = s.pos
        close = s.text.find("\n}", start)
        end = s.text.find("\n", close + 2) if close >= 0 else -1
        end = len(s.text) if end < 0 else end
        key = s.text[start:end]
        if (hit := memo.computations.get(key)) is not None:
            comp, calls = hit
            s.pos = end
            self.computation_refs.extend((name, start + offset) for name, offset in calls)
            return comp
        first_ref, inferences = len(self.computation_refs), self.inferences
        comp = self.computation()
        if self.ended_at(end) and not self.implied and self.inferences == inferences:
            memo.computations[key] = (comp, self.refs_since(first_ref, start))
        return comp

    def remembered_instruction(self, memo: ParseMemo) -> tuple[bool, Instruction, list]:
        """(is ROOT, instruction, operand positions) of one line, as remembered_computation."""
        s = self.s
        s.skip()
        start = s.pos
        end = s.text.find("\n", start)
        end = len(s.text) if end < 0 else end
        key = s.text[start:end]
        if (hit := memo.instructions.get(key)) is not None:
            is_root, inst, operands, calls = hit
            s.pos = end
            self.computation_refs.extend((name, start + offset) for name, offset in calls)
            return is_root, inst, [(name, start + offset) for name, offset in operands]
        first_ref = len(self.computation_refs)
        is_root = s.keyword("ROOT")
        elements_before, inferences = len(self.element_uses), self.inferences
        inst, positions = self.instruction()
        if self.ended_at(end) and not self.nested and not self.implied and not self.typed_operands \
                and not self.constrained_operands and len(self.element_uses) == elements_before \
                and self.inferences == inferences:
            # (a line with inline operands, implied computations, operand shapes or `name#k`
            # elements says more than itself)
            memo.instructions[key] = (is_root, inst, tuple((name, pos - start) for name, pos in positions),
                                      self.refs_since(first_ref, start))
        return is_root, inst, positions

    def refs_since(self, first: int, start: int) -> tuple[tuple[str, int], ...]:
        """The computations referred to since `first`, at offsets from `start`."""
        return tuple((name, pos - start) for name, pos in self.computation_refs[first:])

    def ended_at(self, end: int) -> bool:
        """Whether the parser stopped at `end`, give or take the whitespace it skips."""
        s = self.s
        return s.pos >= end and not s.text[end:s.pos].strip()

    def check_typed_operands(self, instructions: list[Instruction]) -> None:
        shapes = {inst.name: inst.shape for inst in instructions}
        typed, self.typed_operands = self.typed_operands, []
        for operand, written, pos in typed:
            actual = shapes[operand]
            if not _same_ignoring_layout(written, actual):
                self.s.fail(f"operand {operand} is {actual}, but is written here as {written}", pos)

    def take_constraints(self, operands: tuple[str, ...]) -> None:
        assert self.constraints is not None
        shapes, pos = self.constraints
        self.constraints = None
        if problem := constraint_count_problem(len(shapes), len(operands)):
            self.s.fail(problem, pos)
        self.constrained_operands += [(o, shape, pos) for o, shape in zip(operands, shapes)]

    def check_constrained_operands(self, instructions: list[Instruction]) -> None:
        shapes = {inst.name: inst.shape for inst in instructions}
        constrained, self.constrained_operands = self.constrained_operands, []
        for operand, constraint, pos in constrained:
            if not _same_ignoring_layout(constraint, shapes[operand]):
                self.s.fail(f"operand layout constraint {constraint} is not operand {operand}'s shape "
                            f"{shapes[operand]} (a constraint may change only the layout)", pos)

    def check_operands(self, comp: str, instructions: list[Instruction], positions: dict) -> None:
        defined = positions.keys()
        for inst in instructions:
            for operand, pos in positions[inst.name]:
                if operand not in defined:
                    self.s.fail(f"instruction {operand!r} does not exist in computation {comp!r}", pos)

    # ---- instructions ----
    def instruction(self) -> tuple[Instruction, list]:
        s = self.s
        name = s.name("an instruction name")
        s.expect("=", "'=' after the instruction name")
        s.skip()
        return self.instruction_rest(name, None if _opcode_follows(s) else self.shape())

    def instruction_rest(self, name: str, shape: Shape | None, nested: bool = False) -> tuple[Instruction, list]:
        """The instruction after `name = shape`: opcode, operands, attributes. Without a
        shape (`add(a, b)`), the shape is inferred from the operands, as XLA's parser does."""
        s = self.s
        s.skip()
        op_pos = s.pos
        m = s.match(NAME)
        if not m or m.group(0).startswith("%"):
            s.fail(f"expected an opcode, found {s.describe_here()}", op_pos)
        opcode = m.group(0)
        shorthand = None
        if opcode not in OPCODES:
            shorthand = _async_shorthand(opcode)
            if shorthand is None:
                s.fail(f"unknown opcode {opcode!r}", op_pos)
        s.expect("(", f"'(' after {opcode}")
        operand_positions: list = []
        number = literal = None
        operands: tuple[str, ...] = ()
        if opcode == "parameter":
            s.skip()
            number_pos = s.pos
            number = s.integer("the parameter number")
            if number < 0:
                s.fail(f"parameter number must be >= 0, not {number}", number_pos)
            s.expect(")")
        elif opcode == "constant":
            if shape is None:  # its shape says how to read its values
                s.fail("a constant needs its shape written before the opcode, as in f32[2] constant({1, 2})", op_pos)
            s.skip()
            if not s.peek("{...}"):  # elided values allocate nothing
                self.check_constant_size(shape, op_pos)
            literal = parse_literal(s, shape)
            s.expect(")")
        else:
            operands = self.operands(operand_positions)
        attrs: dict[str, AttrValue] = {}
        attr_at: dict[str, int] = {}
        metadata: Metadata | None = None
        while s.peek(",") and not _next_is_computation_attr(s) and (not nested or _ATTR_FOLLOWS.match(s.text, s.pos)):
            s.accept(",")
            key_pos = s.pos
            key = self.attr_key()
            if key in attrs or (key == "metadata" and metadata is not None):
                s.fail(f"attribute {key!r} is given twice", key_pos)
            at = key_pos + len(s.text[key_pos:key_pos + 80]) - len(s.text[key_pos:key_pos + 80].lstrip())
            if key == "result_accuracy" and opcode not in RESULT_ACCURACY_OPS:
                s.fail(f"{opcode} takes no result_accuracy (only the unary transcendental ops do)", at)
            known = None if self.allow_unknown_attributes else allowed_attributes(opcode)
            if known is not None and key not in known:
                s.fail(f"{opcode} takes no attribute {key!r}; XLA allows {', '.join(sorted(known))}", at)
            attr_at[key] = at
            if key == "metadata":
                metadata = self.metadata()
            else:
                attrs[key] = self.attribute(key, key_pos)
        if self.constraints is not None:
            self.take_constraints(operands)
        if opcode == "conditional":
            self.check_branch_attrs(operands, attr_at)
        if opcode == "parameter" and isinstance(replication := attrs.get("parameter_replication"), Raw) \
                and shape is not None:
            leaves = len(shape.leaves()) if isinstance(shape, TupleShape) else 1
            given = len(_re.findall(r"true|false", replication.text))
            if given != leaves:
                s.fail(f"parameter has {leaves} leaf buffers, but parameter_replication has {given} elements",
                       attr_at["parameter_replication"])
        if opcode == "broadcast" and "dimensions" not in attrs and self.is_scalar(operands):
            attrs["dimensions"] = ()  # a scalar broadcasts to every dimension: XLA needs no list
        for required in REQUIRED_ATTRS.get(opcode, ()):
            if required not in attrs:
                s.fail(f"{opcode} needs attribute {required}, which is not given (XLA: 'attribute {required} "
                       f"is expected but not seen')", op_pos)
        if shape is None:
            shape = self.inferred_shape(opcode, operands, attrs, op_pos)
        if shorthand is not None:
            return self.async_from_shorthand(name, shape, shorthand, operands, attrs, metadata, op_pos), operand_positions
        inst = Instruction(name, opcode, shape, operands, attrs, metadata, number, literal)
        return inst, operand_positions

    def check_branch_attrs(self, operands: tuple[str, ...], attr_at: dict[str, int]) -> None:
        """A pred[] selector takes true_computation / false_computation, an s32[] index
        branch_computations (XLA's parser allows only the pair that fits the selector)."""
        selector = self.shapes_here.get(operands[0]) if operands else None
        if not isinstance(selector, ArrayShape) or selector.dims:
            return
        wrong = ("branch_computations",) if selector.dtype == "pred" else ("true_computation", "false_computation")
        for key in wrong:
            if key in attr_at:
                takes = "true_computation and false_computation" if selector.dtype == "pred" else "branch_computations"
                self.s.fail(f"a conditional on {selector.short()} takes {takes}, not {key}", attr_at[key])

    def is_scalar(self, operands: tuple[str, ...]) -> bool:
        shape = self.shapes_here.get(operands[0]) if len(operands) == 1 else None
        return isinstance(shape, ArrayShape) and not shape.dims

    def inferred_shape(self, opcode: str, operands: tuple[str, ...], attrs: dict[str, AttrValue], pos: int) -> Shape:
        """The shape of an instruction written without one: its operands (defined above it)
        and called computations (defined before its computation) decide it."""
        missing = [o for o in operands if o not in self.shapes_here]
        if missing:
            self.s.fail(f"{opcode} has no shape, and its operand {missing[0]!r} is not defined above it "
                        "to infer one from", pos)
        self.inferences += 1
        try:
            return infer_shape(opcode, [self.shapes_here[o] for o in operands], attrs, self.computations_read)
        except HloVerifierError as e:
            self.s.fail(f"{opcode} has no shape, and none can be inferred: {e}", pos)

    def async_from_shorthand(self, name: str, shape: Shape, shorthand: tuple[str, str], operands: tuple[str, ...],
                             attrs: dict[str, AttrValue], metadata: Metadata | None, pos: int) -> Instruction:
        """`X-start(args), attrs` is XLA's print of async-start calling a computation whose one
        instruction is `X(args), attrs`; `X-update` and `X-done` are async-update and -done."""
        base, phase = shorthand
        if phase != "start":
            self.wrapped_opcodes[name] = base
            return Instruction(name, f"async-{phase}", shape, operands, attrs, metadata)
        if not (isinstance(shape, TupleShape) and len(shape.elements) >= 2
                and isinstance(shape.elements[0], TupleShape) and len(shape.elements[0].elements) == len(operands)):
            self.s.fail(f"{base}-start must declare ((operand shapes), result, ...), not {shape}", pos)
        params = tuple(Instruction(f"param_{i}", "parameter", p, parameter_number=i)
                       for i, p in enumerate(shape.elements[0].elements))
        root = Instruction(base, base, shape.elements[1], tuple(p.name for p in params), attrs, metadata)
        callee = f"async_computation.{name}"
        self.implied.append(Computation(callee, (*params, root), root.name))
        # XLA gives the start what describes the op as a whole, as well as the wrapped op
        shared = {k: attrs[k] for k in _ASYNC_SHARED if k in attrs}
        return Instruction(name, "async-start", shape, operands, {"calls": callee, **shared}, metadata)

    def check_constant_size(self, shape: Shape, pos: int) -> None:
        for leaf in shape.leaves() if isinstance(shape, TupleShape) else [shape]:
            if isinstance(leaf, ArrayShape) and leaf.size > self.max_elements:
                self.s.fail(f"constant {leaf.short()} has {leaf.size} elements, over the limit of "
                            f"{self.max_elements} for literal data", pos)

    def operands(self, positions: list) -> tuple[str, ...]:
        s = self.s
        names = []
        while not s.accept(")"):
            if names:
                s.expect(",", "',' or ')' in the operand list")
            if self.operands_as_parameters:
                names.append(self.parameter_operand(positions))
                continue
            written, shape_pos = None, 0
            if self.at_shape():
                shape_pos = s.pos
                written = self.shape()
                s.skip()
                if _opcode_follows(s):
                    names.append(self.nested_instruction(written, positions))
                    continue
            s.skip()
            if written is None and _opcode_follows(s):  # an inline instruction without a shape
                names.append(self.nested_instruction(None, positions))
                continue
            positions.append((None, s.pos))
            name = s.name("an operand name")
            if s.peek("#"):
                name = self.element_of(name, positions[-1][1])
            if written is not None:
                self.typed_operands.append((name, written, shape_pos))
            positions[-1] = (name, positions[-1][1])
            names.append(name)
        return tuple(names)

    def parameter_operand(self, positions: list) -> str:
        """An operand of a single instruction, `f32[2] %x` or just `f32[2]`: a parameter
        (named `_k` when the text gives no name)."""
        s = self.s
        s.skip()
        pos = s.pos
        if not self.at_shape():
            s.fail(f"operand {s.describe_here()} has no shape: a single instruction's operands become parameters, "
                   "so each is written with its shape, as in f32[2] %x (XLA: 'Operand had no shape in HLO text')")
        shape = self.shape()
        s.skip()
        name = s.name() if NAME.match(s.text, s.pos) else f"_{len(self.parameters)}"
        if name not in self.parameters:
            self.parameters[name] = Instruction(name, "parameter", shape, parameter_number=len(self.parameters))
            self.shapes_here[name] = shape
        positions.append((name, pos))
        return name

    def element_of(self, name: str, pos: int) -> str:
        """`name#k`: element k of the tuple-shaped instruction `name` (XLA's dumps write
        multi-output calls' uses so), read as a get-tuple-element placed before its user."""
        s = self.s
        s.expect("#")
        k = s.integer("a tuple element index after '#'")
        self.element_uses.append((name, k))
        shape = self.shapes_here.get(name)
        if shape is None:
            s.fail(f"{name}#{k}: instruction {name!r} must come before this use of its element", pos)
        if not isinstance(shape, TupleShape) or not 0 <= k < len(shape.elements):
            s.fail(f"{name}#{k}: {name} has shape {shape}, which has no tuple element {k}", pos)
        if (name, k) not in self.elements:
            element = f"{name}.element{k}"
            self.elements[(name, k)] = element
            gte = Instruction(element, "get-tuple-element", shape.elements[k], (name,), {"index": k})
            self.nested.append((gte, [(name, pos)]))
        return self.elements[(name, k)]

    def nested_instruction(self, shape: Shape | None, positions: list) -> str:
        """An operand written as an instruction (`f32[] constant(1)`): named as XLA names it
        (`constant.anon`), kept to be placed before its user."""
        s = self.s
        pos = s.pos
        m = NAME.match(s.text, pos)
        opcode = m.group(0) if m else "instruction"
        count = self.anonymous.get(opcode, 0)
        self.anonymous[opcode] = count + 1
        name = f"{opcode}.anon" + (f".{count}" if count else "")
        inst, inner = self.instruction_rest(name, shape, nested=True)
        self.nested.append((inst, inner))
        self.shapes_here[name] = inst.shape
        positions.append((name, pos))
        return name

    def at_shape(self) -> bool:
        s = self.s
        if s.peek("("):
            return True
        m = NAME.match(s.text, s.pos)
        return bool(m) and not m.group(0).startswith("%") and s.text.startswith("[", m.end()) and (
            m.group(0) in ELEMENT_TYPES or m.group(0) in ("token", "opaque")
        )

    # ---- attributes ----
    def attribute(self, key: str, key_pos: int) -> AttrValue:
        s = self.s
        arity = COMPUTATION_ATTRS.get(key)
        if arity == 1:
            return self.computation_ref()
        if arity == "list" or key == "control-predecessors":
            s.expect("{")
            refs = []
            while not s.accept("}"):
                if refs:
                    s.expect(",")
                s.skip()
                pos = s.pos
                refs.append(self.computation_ref() if arity else s.name())
                if not arity:
                    self.predecessor_refs.append((refs[-1], pos))
            return tuple(refs)
        if key == "slice_sizes" and _re.match(r"\{\s*\{", s.text[s.pos:s.pos + 40].lstrip()):
            return self.int_lists()  # collective-permute's in-place form: one list per update
        if key in INT_LIST_ATTRS:
            return self.int_list()
        if key in INT_ATTRS:
            return s.integer()
        if key in BOOL_ATTRS:
            return self.boolean()
        if key in ENUM_ATTRS:
            s.skip()
            pos = s.pos
            value = s.name()
            if value not in ENUM_ATTRS[key]:
                allowed = ", ".join(ENUM_ATTRS[key])
                s.fail(f"unknown {key} {value!r}; expected one of {allowed}", pos)
            return value
        if key == "slice":
            return self.slice_dims()
        if key == "padding":
            return self.padding()
        if key == "window":
            return self.window()
        if key == "dim_labels":
            return self.dim_labels()
        if key == "custom_call_target":
            return s.string()
        if key == "outfeed_shape":  # a shape, checked and kept as written
            s.skip()
            start = s.pos
            self.shape()
            return Raw(s.text[start:s.pos])
        if key == "epsilon":  # a float, kept as written so it prints back the same
            s.skip()
            pos = s.pos
            text = s.balanced()
            try:
                float(text)
            except ValueError:
                s.fail(f"epsilon must be a number, got {text!r}", pos)
            return Raw(text)
        if key == "literal":  # custom-call's `literal=s32[2]{0} {1, 2}`: checked, kept as written
            s.skip()
            start = s.pos
            self.shaped_literal(start)
            return Raw(s.text[start:s.pos])
        if key == "replica_groups":
            return parse_replica_groups(s)
        if key == "result_accuracy":
            return parse_result_accuracy(s)
        if key == "operand_layout_constraints":
            s.skip()
            start = s.pos
            s.expect("{")
            self.constraints = (self.shape_list("}"), start)
            return Raw(s.text[start:s.pos])
        if key == "source_target_pairs":
            return parse_source_target_pairs(s)
        return Raw(s.balanced())

    def shaped_literal(self, start: int) -> None:
        """A literal written after its shape, `s32[2]{0} {1, 2}`, or a tuple of such,
        `( s32[2] {1, 2}, pred[] true )`, as custom-call's literal= takes them."""
        s = self.s
        if s.accept("("):
            while True:
                s.skip()
                self.shaped_literal(start)
                if s.accept(")"):
                    return
                s.expect(",", "',' or ')' in the tuple literal")
        self.check_constant_size(shape := self.shape(), start)
        s.skip()
        if isinstance(shape, TupleShape) or s.peek(",") or s.peek(")"):  # XLA's parser rejects these too
            s.fail("custom-call literal=: a tuple literal writes each element after its own shape, "
                   "as in ( s32[2] {1, 2}, f32[] 3 ), not (s32[2], f32[]) ({1, 2}, 3)", start)
        parse_literal(s, shape)

    def computation_ref(self) -> str:
        s = self.s
        s.skip()
        pos = s.pos
        if s.peek("{"):
            return self.inline_computation()
        name = s.name("a computation name")
        self.computation_refs.append((name, pos))
        return name

    def inline_computation(self) -> str:
        """A computation written in place of its name (`calls={ ... }`): named `_.k` in the order
        the computations end, as XLA names them, and placed before its caller's computation."""
        saved = {k: getattr(self, k) for k in _SCOPE}
        self.nested, self.typed_operands, self.constrained_operands, self.constraints = [], [], [], None
        self.operands_as_parameters = False
        try:
            body = self.computation_body("(inline)")
        finally:
            for k, v in saved.items():
                setattr(self, k, v)
        self.inline_count += 1
        name = f"_.{self.inline_count}"
        comp = Computation(name, body.instructions, body.root, body.execution_thread)
        self.implied.append(comp)
        self.computations_read[name] = comp
        return name

    def int_list(self) -> tuple[int, ...]:
        s = self.s
        s.expect("{")
        values = []
        while not s.accept("}"):
            if values:
                s.expect(",", "',' or '}'")
            values.append(s.integer())
        return tuple(values)

    def int_lists(self) -> Raw:
        """`{{1,2},{3,4}}`: lists of integers, checked and kept as written."""
        s = self.s
        s.skip()
        start = s.pos
        s.expect("{")
        count = 0
        while not s.accept("}"):
            if count:
                s.expect(",", "',' or '}'")
            self.int_list()
            count += 1
        return Raw(s.text[start:s.pos])

    def slice_dims(self) -> tuple[SliceDim, ...]:
        s = self.s
        s.expect("{")
        dims = []
        while not s.accept("}"):
            if dims:
                s.expect(",")
            s.expect("[")
            start = s.integer()
            s.expect(":")
            limit = s.integer()
            stride = s.integer() if s.accept(":") else 1
            s.expect("]")
            dims.append(SliceDim(start, limit, stride))
        return tuple(dims)

    def padding(self) -> tuple[PadDim, ...]:
        s = self.s
        if s.accept("{}"):
            return ()
        dims = [self.pad_dim()]
        while s.text.startswith("x", s.pos):
            s.pos += 1
            dims.append(self.pad_dim())
        return tuple(dims)

    def pad_dim(self) -> PadDim:
        s = self.s
        m = s.match(_PAD)
        if not m:
            s.fail(f"expected padding like 1_2 or 1_2_0, found {s.describe_here()}")
        parts = [int(p) for p in m.group().split("_")]
        if len(parts) == 3 and parts[2] < 0:
            interior = m.start() + m.group().rindex("_") + 1
            s.fail(f"interior padding must not be negative (got {parts[2]}): it is the number of "
                   f"elements put between neighbours", interior)
        return PadDim(*parts)

    def window(self) -> tuple[WindowDim, ...]:
        s = self.s
        s.expect("{")
        fields: dict[str, list] = {}
        while not s.accept("}"):
            key_pos = s.pos
            key = self.attr_key()
            if key == "pad":
                pad_at = s.pos
                dims = self.padding()
                if any(d.interior for d in dims) or _re.match(r"[-\d]+_[-\d]+_", s.text[pad_at:s.pos]):
                    s.fail("a window's pad is low_high per dimension, as in 1_1 (low_high_interior is pad's "
                           "padding=, not a window's)", pad_at)
                fields[key] = [(d.low, d.high) for d in dims]
            elif key in ("size", "stride", "lhs_dilate", "rhs_dilate", "rhs_reversal"):
                fields[key] = self.dxd()
            else:
                s.fail(f"unknown window field {key!r}", key_pos)
        sizes = fields.get("size", [])
        n = len(sizes)
        for key, values in fields.items():
            if len(values) != n:
                s.fail(f"window field {key!r} has {len(values)} dimensions but size has {n}")
        get = lambda k, i, d: fields[k][i] if k in fields else d  # noqa: E731
        return tuple(
            WindowDim(sizes[i], get("stride", i, 1), get("pad", i, (0, 0))[0], get("pad", i, (0, 0))[1],
                      get("lhs_dilate", i, 1), get("rhs_dilate", i, 1), bool(get("rhs_reversal", i, 0)))
            for i in range(n)
        )

    def dim_labels(self) -> ConvDimLabels | Raw:
        s = self.s
        s.skip()
        pos = s.pos
        m = s.match(_DIM_LABELS)
        if not m:
            s.fail(f"expected dim_labels like b01f_01io->b01f, found {s.describe_here()}")
        if "?" in m.group():  # `?` is a dimension of unknown role (a custom-call's): kept as written
            return Raw(m.group())
        try:
            return parse_dim_labels(m.group())
        except ValueError as e:
            s.fail(str(e), pos)

    def dxd(self) -> list[int]:
        s = self.s
        values = [s.integer()]
        while s.text.startswith("x", s.pos):
            s.pos += 1
            values.append(s.integer())
        return values

    def metadata(self) -> Metadata:
        s = self.s
        s.skip()
        m = _SIMPLE_METADATA.match(s.text, s.pos)
        if m:
            s.pos = m.end()
            return Metadata(tuple(
                (k, _unescape(q)) if n == "" else (k, int(n))
                for k, q, n in _METADATA_FIELD.findall(m.group(1))
            ))
        s.expect("{")
        fields: list[tuple[str, MetadataValue]] = []
        while not s.accept("}"):
            if fields:
                s.accept(",")  # XLA's parser takes commas between the fields, and prints none
            key = self.attr_key()
            if s.peek('"'):
                fields.append((key, s.string()))
            elif (number := s.try_integer()) is not None:
                fields.append((key, number))
            else:
                fields.append((key, Raw(s.balanced())))
        return Metadata(tuple(fields))

    # ---- shapes ----
    def shape(self) -> Shape:
        s = self.s
        s.skip()
        m = _SIMPLE_SHAPE.match(s.text, s.pos)
        if m:
            shape = self.shape_cache.get(m.group())
            if shape is not None:
                s.pos = m.end()
                return shape
            shape = self.full_shape()
            if s.pos == m.end():
                self.shape_cache[m.group()] = shape
            return shape
        return self.full_shape()

    def full_shape(self) -> Shape:
        s = self.s
        if s.peek("("):
            return self.tuple_shape()
        s.skip()
        pos = s.pos
        m = s.match(NAME)
        type_name = m.group(0) if m else None
        if type_name in ("token", "opaque"):
            s.expect("[")
            s.expect("]")
            return TokenShape()
        if type_name not in ELEMENT_TYPES:
            what = f"unknown element type {type_name!r}" if type_name else f"expected a shape, found {s.describe_here()}"
            s.fail(what, pos)
        if not s.text.startswith("[", s.pos):
            s.fail(f"expected '[' after the element type {type_name}")
        s.pos += 1
        dims, dynamic = self.dims()
        layout, extra = default_layout(len(dims)), ""
        if s.peek("{") and _layout_follows(s):
            layout, extra = self.layout(len(dims))
        return ArrayShape(type_name, tuple(dims), layout, extra, tuple(dynamic))

    def dims(self) -> tuple[list[int], list[bool]]:
        s = self.s
        dims, dynamic = [], []
        while not s.accept("]"):
            if dims:
                s.expect(",", "',' or ']' in the dimensions")
            bounded = s.accept("<=")
            s.skip()
            pos = s.pos
            if s.accept("?"):
                s.fail("unbounded dynamic dimensions '?' are not supported", pos)
            if len(dims) == MAX_RANK:
                s.fail(f"shapes have at most {MAX_RANK} dimensions (numpy's limit)", pos)
            d = s.integer("a dimension size")
            if d < 0:
                s.fail(f"dimension size {d} is negative", pos)
            if d >= 1 << 63:
                s.fail(f"dimension size {d} does not fit in int64", pos)
            dims.append(d)
            dynamic.append(bounded)
        return dims, dynamic

    def layout(self, rank: int) -> tuple[tuple[int, ...], str]:
        s = self.s
        s.expect("{")
        pos = s.pos
        m2m = []
        while not s.peek("}") and not s.peek(":"):
            if m2m:
                s.expect(",")
            m2m.append(s.integer())
        extra = ""
        if s.accept(":"):
            start = s.pos
            depth = 0
            while s.pos < len(s.text) and not (s.text[s.pos] == "}" and depth == 0):
                depth += {"(": 1, ")": -1}.get(s.text[s.pos], 0)
                s.pos += 1
            check_layout_tail(s.text[start : s.pos], start, s.fail)
            extra = s.text[start : s.pos].strip()
        s.expect("}")
        if m2m and sorted(m2m) != list(range(rank)):
            s.fail(f"layout {{{','.join(map(str, m2m))}}} is not a permutation of 0..{rank - 1}", pos)
        return (tuple(m2m) if m2m else default_layout(rank)), extra

    def tuple_shape(self) -> TupleShape:
        s = self.s
        if self.tuple_depth >= MAX_TUPLE_DEPTH:
            s.fail(f"tuple shapes nest more than {MAX_TUPLE_DEPTH} levels deep")
        s.expect("(")
        self.tuple_depth += 1
        try:
            return TupleShape(tuple(self.shape_list(")")))
        finally:
            self.tuple_depth -= 1

    def shape_list(self, close: str) -> list[Shape]:
        s = self.s
        shapes: list[Shape] = []
        while not s.accept(close):
            if shapes:
                s.expect(",", f"',' or {close!r}")
            shapes.append(self.shape())
        return shapes


_ASYNC_SHARED = ("frontend_attributes", "statistics", "backend_config")
# What reading one computation keeps, saved around an inline computation read in its midst.
_SCOPE = ("shapes_here", "elements", "nested", "typed_operands", "constrained_operands", "constraints",
          "operands_as_parameters", "predecessor_refs")
# Inside an operand list, a comma starts an inline instruction's attribute only before `name=`.
_ATTR_FOLLOWS = _re.compile(r",\s*[A-Za-z_][\w.\-]*\s*=")
_DIM_LABELS = _re.compile(r"[a-z0-9?]+_[a-z0-9?]+->[a-z0-9?]+")
_PAD = _re.compile(r"-?\d+_-?\d+(?:_-?\d+)?")
# A shape without tiling or dynamic dimensions; parsed once per distinct text, then cached.
_SIMPLE_SHAPE = _re.compile(r"[a-z][a-z0-9]*\[[\d,]*\](?:\{[\d,]*\})?(?![\w{:])")
_SIMPLE_METADATA = _re.compile(r'\{((?:\s*[A-Za-z_]\w*=(?:"(?:[^"\\\n]|\\.)*"|-?\d+))*)\s*\}')
_METADATA_FIELD = _re.compile(r'([A-Za-z_]\w*)=(?:"((?:[^"\\\n]|\\.)*)"|(-?\d+))')


def _layout_follows(s: Scanner) -> bool:
    """After `]`, `{` starts a layout only when an integer or ':' follows (as XLA decides:
    `f32[]{}` is a shape followed by a stray `{`)."""
    i = s.pos + 1
    while i < len(s.text) and s.text[i] in " \t":
        i += 1
    return i < len(s.text) and (s.text[i].isdigit() or s.text[i] == ":")


def _after_comma(s: Scanner) -> int:
    i = s.text.index(",", s.pos) + 1
    while i < len(s.text) and s.text[i] in " \t\n":
        i += 1
    return i


def _default_layouts(shape: Shape) -> Shape:
    if isinstance(shape, TupleShape):
        return TupleShape(tuple(_default_layouts(e) for e in shape.elements))
    if isinstance(shape, ArrayShape):
        return ArrayShape(shape.dtype, shape.dims, default_layout(len(shape.dims)), "", shape.dynamic)
    return shape


def _same_ignoring_layout(a: Shape, b: Shape) -> bool:
    if isinstance(a, TupleShape) and isinstance(b, TupleShape):
        return len(a.elements) == len(b.elements) and all(map(_same_ignoring_layout, a.elements, b.elements))
    if isinstance(a, ArrayShape) and isinstance(b, ArrayShape):
        return a.dtype == b.dtype and a.dims == b.dims
    return type(a) is type(b)


def _async_shorthand(opcode: str) -> tuple[str, str] | None:
    """(wrapped opcode, phase) for XLA's `negate-start` / `-update` / `-done` shorthand."""
    for phase in ("start", "update", "done"):
        base = opcode.removesuffix(f"-{phase}")
        if base != opcode and base in OPCODES and OPCODES[base].kind not in ("collective", "async"):
            return base, phase
    return None


def _opcode_follows(s: Scanner) -> bool:
    """After an operand's shape, `name(` starts an inline instruction; a bare name is an operand."""
    m = NAME.match(s.text, s.pos)
    return bool(m) and not m.group(0).startswith("%") and s.text.startswith("(", m.end()) and m.group(0) in OPCODES


def _next_is_computation_attr(s: Scanner) -> bool:
    """`}, execution_thread=...` ends a computation; it is not an instruction attribute."""
    return False


__all__ = ["parse_hlo", "parse_shape", "HloParseError", "STRING"]
