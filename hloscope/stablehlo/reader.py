"""Reading StableHLO (and MHLO) MLIR text, in its pretty or its generic form, into syntax.py's
operations. Errors carry line, column and caret, as the HLO parser's do.

Two forms of the same operation, both accepted:

    %2 = stablehlo.broadcast_in_dim %1, dims = [1] : (tensor<32xf32>) -> tensor<8x32xf32>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<32xf32>) -> tensor<8x32xf32>

The generic form is one grammar for every operation. The pretty form is each operation's own;
most follow one pattern (operands, then `key = value` pairs, then the types), read by
`_inline_operation`; the few that do not (constant, compare, slice, reduce, while, call,
convolution, custom_call, ...) have a reader each below. What an attribute means is left to
legalize.py, which reads both forms' spellings.
"""

from __future__ import annotations

import re
from typing import Any, Callable, NoReturn

from ..errors import HloParseError
from ..ir.scanner import STRING, Scanner
from .constants import HexBits
from .syntax import (
    Block, Dense, Enum, Function, MlirModule, Operation, MlirRegion, Symbol, TensorType, TokenType, TupleType, Type,
    hlo_element,
)

VALUE = re.compile(r"%[\w$.\-]+(?:#\d+)?")
RESULT = re.compile(r"%([\w$.\-]+)(?::(\d+))?")
BARE_ID = re.compile(r"[A-Za-z_][\w$.\-]*")
SYMBOL = re.compile(r"@([\w$.\-]+|\"(?:[^\"\\]|\\.)*\")")
NUMBER = re.compile(r"[-+]?(?:0x[0-9A-Fa-f]+|\d+\.?\d*(?:[eE][-+]?\d+)?|inf|nan)")
ALIAS = re.compile(r"#loc\d*\b")
DIM = re.compile(r"(\d+|\?)x")


class MlirReader(Scanner):
    """A cursor over MLIR text (HLO's Scanner, with MLIR's tokens)."""

    def __init__(self, text: str, dialect: str, form: str):
        super().__init__(text)
        self.dialect, self.form = dialect, form
        self.aliases: dict[str, Any] = {}

    # ---- the module and its functions ----
    def module(self) -> MlirModule:
        self._aliases()
        name, functions = "main", {}
        if self.peek('"builtin.module"'):
            name, functions = self._generic_module()
        elif self.keyword("module"):
            m = self.match(SYMBOL)
            name = m.group(1).strip('"') if m else "main"
            if self.keyword("attributes"):
                self.attribute_dict()
            self.expect("{")
            functions = self._functions("}")
            self.expect("}")
            self._optional_location()
        else:
            functions = self._functions(None)
        self._aliases()
        if not self.at_end():
            self.fail(f"expected the end of the module, found {self.describe_here()}")
        if not functions:
            self.fail("this MLIR module has no functions")
        return MlirModule(name, functions, self.dialect, self.form, self.text, self.aliases)

    def _aliases(self) -> None:
        """`#loc3 = loc(...)` lines: location aliases, before and after the module."""
        while self.peek("#"):
            m = self.match(ALIAS)
            if not m:
                self.fail(f"expected a location alias (#loc3 = loc(...)), found {self.describe_here()}")
            self.expect("=")
            self.expect("loc")
            self.aliases[m.group()] = self._location_body()

    def _functions(self, end: str | None) -> dict[str, Function]:
        functions: dict[str, Function] = {}
        while not self.at_end() and not (end and self.peek(end)):
            if self.peek('"func.func"'):
                f = self._generic_function()
            elif self.keyword("func.func") or self.keyword("func"):
                f = self._function()
            else:
                self.fail(f"expected a function (func.func), found {self.describe_here()}")
            functions[f.name] = f
        return functions

    def _function(self) -> Function:
        line = self.location(self.pos)[0]
        public = True
        for visibility in ("public", "private", "nested"):
            if self.keyword(visibility):
                public = visibility == "public"
        name = self.symbol()
        self.expect("(")
        arguments = []
        while not self.accept(")"):
            value = self.value("an argument (%arg0: ...)")
            self.expect(":")
            arguments.append((value, self.type()))
            self._optional_location()
            if self.peek("{"):
                self.attribute_dict()
            self._optional_location()
            if not self.accept(","):
                self.expect(")")
                break
        results: list[Type] = []
        if self.accept("->"):
            if self.accept("("):
                while not self.accept(")"):
                    results.append(self.type())
                    if self.peek("{"):
                        self.attribute_dict()
                    self.accept(",")
            else:
                results.append(self.type())
        if self.keyword("attributes"):
            self.attribute_dict()
        self.expect("{")
        body = self._block_body(arguments)
        self.expect("}")
        return Function(name, arguments, results, body, public, line, self._optional_location())

    def _generic_module(self) -> tuple[str, dict[str, Function]]:
        """`"builtin.module"() <{sym_name = ...}> ({ "func.func"() <{...}> ({...}) : () -> () ... }) : () -> ()`."""
        module = self.operation_statement()
        functions = {}
        for op in module.regions[0].block.operations if module.regions else []:
            if op.name != "func.func":
                self._fail_at(op, f"expected a function (func.func) in the module, found {op.name}")
            f = self._function_of(op)
            functions[f.name] = f
        return str(module.attributes.get("sym_name", "main")), functions

    def _generic_function(self) -> Function:
        return self._function_of(self.operation_statement())

    def _function_of(self, op: Operation) -> Function:
        kind = op.attributes.get("function_type")
        if not isinstance(kind, tuple) or not op.regions:
            self._fail_at(op, "a generic func.func needs its function_type and a body")
        block = op.regions[0].block
        return Function(str(op.attributes.get("sym_name", "main")), block.arguments, list(kind[1]), block,
                        op.attributes.get("sym_visibility", "public") == "public", op.line, op.location)

    def _fail_at(self, op: Operation, message: str) -> NoReturn:
        lines = self.text.splitlines()
        raise HloParseError(message, op.line, op.column, lines[op.line - 1] if 0 < op.line <= len(lines) else "")

    # ---- blocks and regions ----
    def _block_body(self, arguments: list[tuple[str, Type]]) -> Block:
        """Operations up to the closing `}` (not consumed). A `^bb0(...)` label gives the
        block's arguments; only single-block regions occur in StableHLO from JAX."""
        if self.peek("^"):
            self.match(re.compile(r"\^[\w$.\-]+"))
            arguments = []
            if self.accept("("):
                while not self.accept(")"):
                    value = self.value("a block argument")
                    self.expect(":")
                    arguments.append((value, self.type()))
                    self._optional_location()
                    self.accept(",")
            self.expect(":")
        operations = []
        while not self.peek("}"):
            if self.at_end():
                self.fail("this region is never closed: expected '}'")
            if self.peek("^"):
                self.fail("a region with more than one block is not supported (StableHLO's regions have one)")
            operations.append(self.operation_statement())
        return Block(arguments, operations)

    def region(self, arguments: list[tuple[str, Type]] | None = None) -> MlirRegion:
        self.expect("{")
        block = self._block_body(arguments or [])
        self.expect("}")
        return MlirRegion([block])

    # ---- operations ----
    def operation_statement(self) -> Operation:
        self.skip()
        start = self.pos
        line, column, _ = self.location(start)
        results: list[str] = []
        if self.peek("%"):
            while True:
                m = self.match(RESULT)
                if not m:
                    self.fail(f"expected a result name, found {self.describe_here()}")
                count = int(m.group(2) or 1)
                name = "%" + m.group(1)
                results += [name] if count == 1 and m.group(2) is None else [f"{name}#{i}" for i in range(count)]
                if not self.accept(","):
                    break
            self.expect("=")
        if self.peek('"'):
            op = self._generic_operation(results)
        else:
            m = self.match(BARE_ID)
            if not m:
                self.fail(f"expected an operation, found {self.describe_here()}")
            name = _qualified(m.group())
            op = Operation(name, results, [], [], [])
            reader = _PRETTY.get(op.short_name, _inline_operation)
            try:
                reader(self, op)
            except Exception as e:
                if getattr(e, "line", None) is not None and name.split(".")[0] in ("stablehlo", "mhlo", "chlo", "func"):
                    known = op.short_name in _PRETTY or op.short_name in INLINE_OPERATIONS
                    if not known:
                        e.args = (f"{e.args[0]} (in {name}, which hloscope's StableHLO reader does not know)",
                                  *e.args[1:])
                raise
        op.line, op.column = line, column
        op.location = self._optional_location()
        return op

    def _generic_operation(self, results: list[str]) -> Operation:
        name = self.string()
        op = Operation(name, results, [], [], [])
        self.expect("(")
        op.operands = self.values(")")
        self.expect(")")
        if self.accept("["):
            self.fail("operations with successor blocks are not supported")
        if self.accept("<{"):
            op.attributes.update(self._attribute_entries("}>"))
        if self.peek("(") and not self.peek("()"):
            self.expect("(")
            while True:
                op.regions.append(self.region())
                if not self.accept(","):
                    break
            self.expect(")")
        if self.peek("{"):
            op.attributes.update(self.attribute_dict())
        self.expect(":")
        operand_types, result_types = self.function_type()
        op.operand_types, op.result_types = operand_types, result_types
        return op

    def _optional_location(self) -> Any:
        if self.peek("loc(") or self.peek("loc ("):
            self.expect("loc")
            return self._location_body()
        return None

    def _location_body(self) -> Any:
        self.expect("(")
        loc = self._location()
        self.expect(")")
        return loc

    def _location(self) -> Any:
        """One location: unknown, #loc3, "file":line:col [to ...], "name"(inner), callsite(a at b), fused[...]."""
        if self.keyword("unknown"):
            return ("unknown",)
        m = self.match(ALIAS)
        if m:
            return ("ref", m.group())
        if self.keyword("callsite"):
            self.expect("(")
            callee = self._location()
            self.expect("at")
            caller = self._location()
            self.expect(")")
            return ("callsite", callee, caller)
        if self.keyword("fused"):
            if self.peek("<"):
                self.angle_text()
            self.expect("[")
            parts = []
            while not self.accept("]"):
                parts.append(self._location())
                self.accept(",")
            return ("fused", parts)
        name = self.string()
        if self.accept(":"):
            line = self.integer("a line number")
            self.expect(":")
            column = self.integer("a column")
            if self.keyword("to"):
                self.try_integer()
                self.expect(":")
                self.integer("a column")
            return ("file", name, line, column)
        child = None
        if self.accept("("):
            child = self._location()
            self.expect(")")
        return ("name", name, child)

    # ---- values, types, attributes ----
    def value(self, what: str = "a value (%name)") -> str:
        m = self.match(VALUE)
        if not m:
            self.fail(f"expected {what}, found {self.describe_here()}")
        return m.group()

    def values(self, end: str = "") -> list[str]:
        """Comma-separated %values (possibly none)."""
        out: list[str] = []
        if not self.peek("%"):
            return out
        while True:
            out.append(self.value())
            if not (self.peek(",") and self._comma_then_value()):
                return out
            self.expect(",")

    def _comma_then_value(self) -> bool:
        """Whether the `,` at the cursor is followed by another %value."""
        save = self.pos
        self.expect(",")
        more = self.peek("%")
        self.pos = save
        return more

    def symbol(self) -> str:
        m = self.match(SYMBOL)
        if not m:
            self.fail(f"expected a symbol (@name), found {self.describe_here()}")
        return m.group(1).strip('"')

    def type(self) -> Type:
        self.skip()
        start = self.pos
        if self.accept("tensor<"):
            dims = []
            while True:
                m = self.match(DIM)
                if not m:
                    break
                if m.group(1) == "?":
                    self.fail("a dynamic dimension (?) is not supported: hloscope compiles static shapes", start)
                dims.append(int(m.group(1)))
            element = self._element_type(start)
            if self.accept(","):
                self.fail("a tensor with an encoding (bounded dynamic shapes, sparsity) is not supported", start)
            self.expect(">")
            return TensorType(element, tuple(dims))
        if self.accept("tuple<"):
            items = []
            while not self.accept(">"):
                items.append(self.type())
                self.accept(",")
            return TupleType(tuple(items))
        if self.accept("!stablehlo.token") or self.accept("!mhlo.token"):
            return TokenType()
        m = self.match(BARE_ID)
        if m and hlo_element(m.group()) is not None:  # a scalar element type standing alone
            return TensorType(hlo_element(m.group()) or "", ())
        self.fail(f"expected a type (tensor<...>, tuple<...>, !stablehlo.token), found {self.describe_here()}", start)

    def _element_type(self, start: int) -> str:
        if self.accept("complex<"):
            inner = self.name("a complex element type")
            self.expect(">")
            mlir = f"complex<{inner}>"
        else:
            mlir = self.name("an element type")
        element = hlo_element(mlir)
        if element is None:
            self.fail(f"the element type {mlir} has no HLO equivalent", start)
        return element

    def function_type(self) -> tuple[list[Type], list[Type]]:
        """`(T, T) -> T`, `(T) -> (T, T)`, `T -> T`, or a bare list of types (no arrow)."""
        operands = self._type_list()
        if not self.accept("->"):
            return operands, []
        return operands, self._type_list()

    def _type_list(self) -> list[Type]:
        if self.accept("("):
            types: list[Type] = []
            while not self.accept(")"):
                types.append(self.type())
                self.accept(",")
            return types
        types = [self.type()]
        while self.peek(",") and not self.peek(",%"):
            save = self.pos
            self.expect(",")
            if not (self.peek("tensor<") or self.peek("tuple<") or self.peek("!")):
                self.pos = save
                break
            types.append(self.type())
        return types

    def _trailing_types(self) -> tuple[list[Type], list[Type]]:
        self.expect(":")
        return self.function_type()

    def attribute_dict(self) -> dict[str, Any]:
        self.expect("{")
        return self._attribute_entries("}")

    def _attribute_entries(self, end: str) -> dict[str, Any]:
        entries: dict[str, Any] = {}
        while not self.accept(end):
            key = self.string() if self.peek('"') else self.name("an attribute name")
            entries[key] = self.attribute() if self.accept("=") else True
            if not self.accept(","):
                self.expect(end)
                break
        return entries

    def attribute(self) -> Any:
        """One attribute value, as Python: int, float, bool, str, list, dict, Dense, Enum, Symbol,
        a (operands, results) function type, or the raw text of one hloscope has no use for."""
        self.skip()
        start = self.pos
        if self.accept("dense<"):
            return self._dense(start)
        if self.accept("dense_resource<"):
            self.fail("a constant stored as a dense_resource (its values are not in the text) cannot be read; "
                      "print the module with its large constants inline", start)
        if self.accept("array<"):
            self.name("an element type")
            items: list[Any] = []
            if self.accept(":"):
                while not self.accept(">"):
                    items.append(self._scalar())
                    self.accept(",")
            else:
                self.expect(">")
            return items
        if self.peek("["):
            self.expect("[")
            items = []
            while not self.accept("]"):
                items.append(self.attribute())
                self.accept(",")
            return items
        if self.peek("{"):
            return self.attribute_dict()
        if self.peek("@"):
            return Symbol(self.symbol())
        if self.peek('"'):
            return self.string()
        if self.peek("#"):
            return self._hash_attribute()
        if self.peek("("):
            return self.function_type()
        if self.peek("<"):  # an inline struct, such as a dot's algorithm = <lhs_precision_type = tf32, ...>
            return "<" + self.angle_text() + ">"
        m = self.match(NUMBER)
        if m:
            self._optional_scalar_type()
            return _number(m.group())
        word = self.match(BARE_ID)
        if word:
            if word.group() in ("true", "false"):
                return word.group() == "true"
            if word.group() == "unit":
                return True
            return Enum(word.group())
        self.fail(f"expected an attribute value, found {self.describe_here()}", start)

    def _optional_scalar_type(self) -> None:
        if self.peek(":") and not self.peek("::"):
            save = self.pos
            self.expect(":")
            if not self.match(re.compile(r"(?:i|ui|si|f|bf)\d+\b|index\b")):
                self.pos = save

    def _scalar(self) -> Any:
        m = self.match(NUMBER)
        if m:
            return _number(m.group())
        word = self.name("a number or true/false")
        if word not in ("true", "false"):
            self.fail(f"expected a number or true/false, found {word!r}")
        return word == "true"

    def _dense(self, start: int) -> Dense:
        values = self._dense_values()
        self.expect(">")
        self.expect(":")
        kind = self.type()
        if not isinstance(kind, TensorType):
            self.fail("a dense constant's type must be a tensor", start)
        return Dense(values, kind)

    def _dense_values(self) -> Any:
        if self.peek(">"):  # dense<> : tensor<0xf32>, no elements
            return []
        if self.peek('"'):
            return self.string()  # "0x...": the raw little-endian bytes, in hex
        if self.accept("["):
            items = []
            while not self.accept("]"):
                items.append(self._dense_values())
                self.accept(",")
            return items
        if self.accept("("):  # a complex number: (real, imaginary), each maybe its bits in hex
            real = self._scalar()
            self.expect(",")
            imag = self._scalar()
            self.expect(")")
            return (real, imag)
        return self._scalar()

    def _hash_attribute(self) -> Any:
        """`#stablehlo<precision DEFAULT>` -> Enum, `#stablehlo.gather<k = v, ...>` -> dict,
        `#stablehlo.conv<[b, 0, 1, f]x[...]->[...]>` -> its text; others -> their raw text."""
        self.skip()
        start = self.pos
        m = self.match(re.compile(r"#([\w.]+)"))
        assert m is not None
        kind = m.group(1)
        if not self.peek("<"):
            return Enum(kind)
        if kind.endswith(".conv") and self.peek("<["):
            self.expect("<")
            text = self.angle_text(opened=True)
            return {"compact": text}
        body_start = self.pos
        self.expect("<")
        if kind in ("stablehlo", "mhlo", "chlo"):  # an enum: #stablehlo<precision DEFAULT>
            words = re.findall(r"[\w.]+", self.angle_text(opened=True))
            return Enum(words[-1]) if words else Enum("")
        save = self.pos
        try:
            if self.keyword("raw"):
                pass
            entries = self._attribute_entries(">") if not self.peek(">") else (self.expect(">") or {})
            entries["#kind"] = kind
            return entries
        except Exception:
            self.pos = save
        self.pos = body_start
        self.expect("<")
        return self.text[start:body_start] + "<" + self.angle_text(opened=True) + ">"

    def angle_text(self, opened: bool = False) -> str:
        """The text up to the `>` that closes an open `<` (an arrow `->` is not a bracket)."""
        if not opened:
            self.expect("<")
        depth, i, text = 1, self.pos, self.text
        while i < len(text):
            if text.startswith("->", i):
                i += 2
                continue
            c = text[i]
            if c == '"':
                m = STRING.match(text, i)
                i = m.end() if m else i + 1
                continue
            if c == "<":
                depth += 1
            elif c == ">":
                depth -= 1
                if depth == 0:
                    inner = text[self.pos : i]
                    self.pos = i + 1
                    return inner
            i += 1
        self.fail("this '<' is never closed")


def _number(token: str) -> int | float:
    if token.lower().startswith(("0x", "-0x", "+0x")):
        return HexBits(int(token, 16))
    if re.fullmatch(r"[-+]?\d+", token):
        return int(token)
    return float(token)


def _qualified(name: str) -> str:
    """`call` and `return` are func's ops written without their dialect."""
    return {"call": "func.call", "return": "func.return"}.get(name, name)


# ---- the pretty forms ----

def _inline_operation(r: MlirReader, op: Operation) -> None:
    """The common pretty form: `%a, %b, key = value, ... {attrs} : types` (chlo's ops may put
    it in parentheses: `chlo.top_k(%x, k = 3)`)."""
    parenthesized = r.accept("(")
    op.operands = r.values()
    while r.accept(",") or (not op.operands and not op.attributes and r.match(re.compile(r"(?=\w+\s*=)"))):
        key = r.name("an attribute name")
        r.expect("=")
        op.attributes[key] = _inline_value(r)
    if parenthesized:
        r.expect(")")
    if r.peek("{"):
        op.attributes.update(r.attribute_dict())
    op.operand_types, op.result_types = r._trailing_types()
    if not op.result_types:  # `: T` alone: the result's type (and every operand's)
        op.result_types = list(op.operand_types[-1:]) if op.short_name not in _TYPE_PER_RESULT else op.operand_types


_TYPE_PER_RESULT = {"optimization_barrier", "return", "while"}


def _inline_value(r: MlirReader) -> Any:
    """A value in the pretty form: `[1, 2]`, `[1] x [0]`, `[DEFAULT, DEFAULT]`, `0`, `FFT`, `true`."""
    value = r.attribute()
    if isinstance(value, list) and r.keyword("x"):
        return (value, r.attribute())
    return value


def _constant(r: MlirReader, op: Operation) -> None:
    if r.peek("{"):
        op.attributes.update(r.attribute_dict())
    value = r.attribute()
    op.attributes["value"] = value
    if isinstance(value, Dense):
        op.result_types = [value.type]
    else:
        r.fail("expected a dense<...> constant")


def _compare(r: MlirReader, op: Operation) -> None:
    op.attributes["comparison_direction"] = Enum(r.name("a comparison direction (EQ, LT, ...)"))
    r.expect(",")
    op.operands = r.values()
    if r.accept(","):
        op.attributes["compare_type"] = Enum(r.name("a comparison type (FLOAT, SIGNED, ...)"))
    op.operand_types, op.result_types = r._trailing_types()


def _slice(r: MlirReader, op: Operation) -> None:
    """`%x [0:4, 1:9:2]`: start:limit(:stride) per dimension."""
    op.operands = [r.value()]
    r.expect("[")
    starts, limits, strides = [], [], []
    while not r.accept("]"):
        starts.append(r.integer())
        r.expect(":")
        limits.append(r.integer())
        strides.append(r.integer() if r.accept(":") else 1)
        r.accept(",")
    op.attributes.update(start_indices=starts, limit_indices=limits, strides=strides)
    op.operand_types, op.result_types = r._trailing_types()


def _reduce(r: MlirReader, op: Operation) -> None:
    """`(%x init: %c), (%y init: %d) applies stablehlo.add across dimensions = [1] : ...`,
    or with `reducer(%a: T, %b: T) (%c: T, %d: T) { ... }` in place of `applies`."""
    inputs, inits = [], []
    while r.accept("("):
        inputs.append(r.value())
        r.expect("init")
        r.expect(":")
        inits.append(r.value())
        r.expect(")")
        if not r.accept(","):
            break
    op.operands = inputs + inits
    if r.keyword("applies"):
        op.attributes["applies"] = _qualified(r.name("the reducing operation"))
    r.expect("across")
    r.expect("dimensions")
    r.expect("=")
    op.attributes["dimensions"] = r.attribute()
    op.operand_types, op.result_types = r._trailing_types()
    if "applies" not in op.attributes:
        r.expect("reducer")
        pairs = []
        while r.accept("("):
            pair = []
            while not r.accept(")"):
                value = r.value()
                r.expect(":")
                pair.append((value, r.type()))
                r._optional_location()
                r.accept(",")
            pairs.append(pair)
        arguments = [p[0] for p in pairs] + [p[1] for p in pairs]  # accumulators, then the inputs' elements
        op.regions.append(r.region(arguments))


def _while(r: MlirReader, op: Operation) -> None:
    """`(%iterArg = %x, ...) : T, ... cond { ... } do { ... }`."""
    r.expect("(")
    names = []
    while not r.accept(")"):
        names.append(r.value())
        r.expect("=")
        op.operands.append(r.value())
        r.accept(",")
    if r.accept(":"):
        op.result_types = r._type_list()
    if r.peek("attributes"):
        r.expect("attributes")
        op.attributes.update(r.attribute_dict())
    arguments = list(zip(names, op.result_types))
    r.expect("cond")
    op.regions.append(r.region(arguments))
    r.expect("do")
    op.regions.append(r.region(arguments))


def _call(r: MlirReader, op: Operation) -> None:
    op.attributes["callee"] = Symbol(r.symbol())
    r.expect("(")
    op.operands = r.values()
    r.expect(")")
    if r.peek("{"):
        op.attributes.update(r.attribute_dict())
    op.operand_types, op.result_types = r._trailing_types()


def _custom_call(r: MlirReader, op: Operation) -> None:
    op.attributes["call_target_name"] = r.symbol() if r.peek("@") else r.string()
    r.expect("(")
    op.operands = r.values()
    r.expect(")")
    if r.peek("{"):
        op.attributes.update(r.attribute_dict())
    op.operand_types, op.result_types = r._trailing_types()


def _return(r: MlirReader, op: Operation) -> None:
    op.operands = r.values()
    if r.accept(":"):
        op.operand_types = r._type_list()


def _get_tuple_element(r: MlirReader, op: Operation) -> None:
    op.operands = [r.value()]
    r.expect("[")
    op.attributes["index"] = r.integer()
    r.expect("]")
    op.operand_types, op.result_types = r._trailing_types()


def _convolution(r: MlirReader, op: Operation) -> None:
    """`(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1],
    pad = [[1, 1], [1, 1]], lhs_dilate = [...], rhs_dilate = [...], reverse = [...]} {attrs} : ...`."""
    r.expect("(")
    op.operands = r.values()
    r.expect(")")
    r.expect("dim_numbers")
    r.expect("=")
    r.skip()
    start = r.pos
    found = re.compile(r",\s*window\s*=").search(r.text, start, start + 400)
    if found is None:
        r.fail("expected `dim_numbers = [...]x[...]->[...], window = {...}`")
    op.attributes["dimension_numbers"] = {"compact": r.text[start : found.start()]}
    r.pos = found.start()
    r.expect(",")
    r.expect("window")
    r.expect("=")
    window = r.attribute_dict()
    names = {"stride": "window_strides", "pad": "padding", "lhs_dilate": "lhs_dilation",
             "rhs_dilate": "rhs_dilation", "reverse": "window_reversal"}
    op.attributes.update({names.get(k, k): v for k, v in window.items()})
    if r.peek("{"):
        op.attributes.update(r.attribute_dict())
    op.operand_types, op.result_types = r._trailing_types()


def _composite(r: MlirReader, op: Operation) -> None:
    op.attributes["name"] = r.string()
    op.operands = r.values()
    if r.peek("{"):
        op.attributes.update(r.attribute_dict())
    op.operand_types, op.result_types = r._trailing_types()


_PRETTY: dict[str, Callable[[MlirReader, Operation], None]] = {
    "constant": _constant, "compare": _compare, "slice": _slice, "reduce": _reduce, "while": _while,
    "call": _call, "custom_call": _custom_call, "return": _return, "get_tuple_element": _get_tuple_element,
    "convolution": _convolution, "composite": _composite,
}

# The operations whose pretty form _inline_operation reads (the reader tells the user when an
# operation it does not know fails to read).
INLINE_OPERATIONS = frozenset(
    "abs add and atan2 cbrt ceil clamp complex cosine count_leading_zeros divide exponential exponential_minus_one "
    "floor imag is_finite log log_plus_one logistic maximum minimum multiply negate not or popcnt power real "
    "remainder round_nearest_afz round_nearest_even rsqrt select shift_left shift_right_arithmetic "
    "shift_right_logical sign sine sqrt subtract tan tanh xor convert bitcast_convert reshape broadcast_in_dim "
    "transpose reverse iota dynamic_slice dynamic_update_slice concatenate pad dot dot_general "
    "optimization_barrier tuple rng_bit_generator rng cholesky fft reduce_precision partition_id replica_id "
    "after_all create_token square erf erf_inv tan top_k lgamma digamma".split())


def read_mlir(text: str, dialect: str, form: str) -> MlirModule:
    """The MLIR module `text` holds (raises HloParseError with line, column and caret)."""
    return MlirReader(text, dialect, form).module()


__all__ = ["MlirReader", "read_mlir", "Dense", "Enum", "Symbol", "TensorType", "TokenType", "TupleType"]
