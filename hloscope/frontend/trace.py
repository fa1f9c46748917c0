"""The tracing context: which computation is being built, and how each numpy-level operation
is recorded.

A `Lowering` is one trace of one Python function: the `ModuleBuilder` it writes and the
computation names it hands out (`main.1`, `region_0.2`, ...). A `Frame` is one computation
being written: the ENTRY, a branch of `cond`, the body of a loop. Frames nest; the innermost
active one is where new instructions go (JAX's "trace stack"). The stack is per thread and is
the one piece of global state in the frontend: `np.zeros_like(x)` has nowhere else to find out
which computation it belongs to.

`operation(name, ...)` brackets one numpy-level call (`np.sum`, `x @ w`): it finds the user's
source line, stamps it on every instruction emitted inside as XLA-style metadata
(`op_name="jit(f)/sum" source_file=... source_line=...`), records one `Equation` for the trace
listing, and turns shape failures into errors that point at that line. Operations that a rule
performs internally (`mean` calling `sum`) nest silently inside the outer one.
"""

from __future__ import annotations

import re
import sys
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator

from ..errors import HloscopeError, HloVerifierError
from ..ir.attributes import Metadata
from ..ir.builder import ModuleBuilder
from ..ir.computation import Computation
from ..ir.instruction import Instruction
from .abstract import ShapedArray
from .errors import ShapeError, TracerLeakError
from .source import SourceInfo, located, user_frame
from .tracer import Tracer

_state = threading.local()


def _stack() -> list["Frame"]:
    if not hasattr(_state, "frames"):
        _state.frames = []
    return _state.frames


def current_frame() -> "Frame | None":
    """The innermost computation being traced on this thread, or None outside any trace."""
    stack = _stack()
    return stack[-1] if stack else None


def tracing_frame(what: str) -> "Frame":
    """The innermost computation being traced; TracerLeakError if `what` happens outside
    any trace (a traced value that escaped the function being traced)."""
    frame = current_frame()
    if frame is None:
        raise TracerLeakError(located(f"{what} on a traced value outside hloscope.jit: traced values "
                                      "must not escape the function being traced"))
    return frame


def hlo_name(text: str) -> str:
    """`text` made into a valid HLO identifier (`params['w']` -> `params_w`)."""
    name = re.sub(r"[^A-Za-z0-9_.\-]+", "_", text).strip("_.-") or "arg"
    return name if re.match(r"[A-Za-z_]", name) else "_" + name


@dataclass
class Equation:
    """One numpy-level operation as the trace listing shows it: `outs = op[params] inputs`."""

    op: str
    inputs: list  # tracers, arrays and numbers, as the call passed them
    params: dict
    source: SourceInfo | None
    outputs: list[Tracer] = field(default_factory=list)
    subprograms: list[tuple[str, Frame]] = field(default_factory=list)  # cond branches, loop bodies


class Lowering:
    """One trace of one function: the module builder and the names of its computations."""

    def __init__(self, fn_name: str):
        self.fn_name = fn_name
        self.mb = ModuleBuilder(f"jit_{hlo_name(fn_name)}")
        self.scope = f"jit({fn_name})"
        self._computations = 0
        self._regions = 0
        self.gradient_stops: set[str] = set()  # stop_gradient's identities: derivatives pass none through
        self.loop_stacks: dict[str, list] = {}  # a reversed loop's name -> the carries it saved

    def computation_name(self, base: str) -> str:
        """`base.N` with N counting every computation of the module, as JAX numbers them."""
        self._computations += 1
        return f"{base}.{self._computations}"

    def region_name(self) -> str:
        """`region_K.N`: the name JAX gives the computation of a reduce, a branch or a loop."""
        name = self.computation_name(f"region_{self._regions}")
        self._regions += 1
        return name


class Frame:
    """One computation being traced: its builder, parameters, captures and equations."""

    def __init__(self, lowering: Lowering, name: str, parent: "Frame | None" = None,
                 scope: str | None = None):
        self.lowering = lowering
        self.cb = lowering.mb.computation(name)
        self.parent = parent
        self.scope = scope or lowering.scope
        self.params: list[Tracer] = []
        self.captures: dict[tuple, tuple[Tracer, Tracer]] = {}  # outer key -> (outer, inner)
        self.equations: list[Equation] = []
        self.outputs: list[Tracer] = []
        self.depth = 0
        self.finished = False

    @property
    def name(self) -> str:
        return self.cb.name

    # ---- values ----
    def wrap(self, inst: Instruction, weak: bool = False) -> Tracer:
        """A tracer for an array-shaped instruction of this frame."""
        shape = inst.array_shape
        aval = ShapedArray(shape.dims, shape.numpy_dtype, weak)
        return Tracer(self, inst, aval)

    def parameter(self, aval: ShapedArray, name: str, metadata=None) -> Tracer:
        """The next parameter of this computation, holding a value of `aval`."""
        inst = self.cb.parameter(aval.hlo_shape(), name=hlo_name(name), metadata=metadata)
        return Tracer(self, inst, aval)

    def emit_inst(self, opcode: str, operands=(), shape=None, **attrs) -> Instruction:
        """Append one HLO instruction; operands from enclosing frames are captured first."""
        handles = [self.lift(o).inst for o in operands]
        return self.cb.op(opcode, handles, shape=shape, **attrs)

    def emit(self, opcode: str, operands=(), shape=None, **attrs) -> Tracer:
        return self.wrap(self.emit_inst(opcode, operands, shape, **attrs))

    def lift(self, x: Tracer) -> Tracer:
        """`x` as a value of this frame: an enclosing frame's value becomes a new parameter."""
        if x.frame is self:
            return x
        if x.frame.finished or self.parent is None:
            raise TracerLeakError(located(
                f"a traced value ({x.aval.short()}) was used outside the trace that made it; "
                "values inside hloscope.jit (and inside cond/loop bodies) must not escape, e.g. "
                "into globals or lists kept between calls"))
        outer = self.parent.lift(x)
        if outer.key not in self.captures:  # metadata: the operation that needed it
            self.captures[outer.key] = (outer, self.parameter(outer.aval, "captured"))
        return self.captures[outer.key][1]

    def local(self, x: Tracer) -> Tracer | None:
        """`x` as seen inside this frame if it already is one of its values (for listings)."""
        if x.frame is self:
            return x
        outer = self.parent.local(x) if self.parent is not None else None
        hit = self.captures.get(outer.key) if outer is not None else None
        return hit[1] if hit else None

    # ---- activation and completion ----
    @contextmanager
    def active(self) -> Iterator["Frame"]:
        """Make this the frame new operations go to."""
        stack = _stack()
        stack.append(self)
        try:
            yield self
        finally:
            stack.pop()

    def finish(self, outputs: list[Tracer], tuple_root: bool = False) -> Computation:
        """Build the computation with `outputs` as ROOT (one array, or a tuple of several;
        always a tuple with `tuple_root`, as a while body whose state is a 1-tuple needs)."""
        outputs = [self.lift(o) for o in outputs]
        with self.active():
            root = outputs[0].inst if len(outputs) == 1 and not tuple_root else self.cb.tuple(*[o.inst for o in outputs])
        self.outputs = outputs
        self.finished = True
        return self.cb.build(root)


def metadata_for(scope: str, name: str, source: SourceInfo | None) -> Metadata:
    """XLA's metadata for one operation: op_name, and where the user wrote it."""
    fields: list = [("op_name", f"{scope}/{name}")]
    if source is not None:
        fields += [("source_file", source.file), ("source_line", source.line)]
    return Metadata(tuple(fields))


@contextmanager
def operation(name: str, inputs=(), params=None) -> Iterator[Equation | None]:
    """Bracket one numpy-level operation in the current frame (see the module docstring).

    Yields the Equation to fill in (set `.outputs`), or None when nested in another operation.
    """
    frame = tracing_frame(name)
    if frame.depth:
        frame.depth += 1
        try:
            yield None
        finally:
            frame.depth -= 1
        return
    source = user_frame()
    eq = Equation(name, list(inputs), dict(params or {}), source)
    saved, frame.cb.metadata, frame.depth = frame.cb.metadata, metadata_for(frame.scope, name, source), 1
    try:
        yield eq
    except HloVerifierError as e:
        raise ShapeError(located(f"{name}: {e}", source)) from None
    except Exception as e:
        # Python 3.10 has no exception notes: there the error goes up without the line.
        if sys.version_info >= (3, 11) and not isinstance(e, HloscopeError) and source is not None:
            e.add_note(f"while tracing {name}\n{source.describe()}")
        raise
    finally:
        frame.depth, frame.cb.metadata = 0, saved
    if eq.outputs or eq.subprograms:  # np.shape(x) and the like emit nothing
        frame.equations.append(eq)
