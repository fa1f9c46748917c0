"""The fusion rules: may this producer be fused into this consumer, and why (not)?

One function per rule, each a question XLA's `InstructionFusion::ShouldFuse` and
`CpuInstructionFusion::ShouldFuse` ask (xla/service/instruction_fusion.cc,
xla/service/cpu/cpu_instruction_fusion.cc). A rule returns None when it has nothing against
the pair, or a `Verdict` that rejects it with a reason phrased for a learner. `should_fuse`
asks them in order; the first "no" wins, and if nobody objects the pair is fused:

    output_fusion         a matrix-vector dot may fuse into its bias add (kOutput)
    producer_is_input     a parameter is already in memory
    consumer_fusible      the consumer can head a fusion (not a dot, a while, a custom-call...)
    producer_fusible      the producer can be fused at all (not a parameter, a reduce, ...)
    reduce_layout         XLA:CPU fuses into a reduce only if it reduces the minor dimension
    duplication           a producer with other users is duplicated: never if it is expensive
    recompute             an expensive producer is not fused where its elements are reused
    limits                operand count and fusion size stay bounded
    lonely_constant       a fusion of a constant and one op gains nothing
"""

from __future__ import annotations

from dataclasses import dataclass

from ...ir.opcodes import OPCODES, is_elementwise
from ...ir.shape import ArrayShape
from .builder import Group

# Ops that read their inputs at one index per output element, or move data cheaply: the
# operations a loop fusion can compute inline (XLA:CPU's CanBeLoopFused, plus copy/convert).
DATA_MOVEMENT = frozenset(
    "broadcast reshape bitcast transpose slice reverse pad concatenate iota constant "
    "dynamic-slice gather".split()
)
# Cheap enough to duplicate into every consumer (XLA's IsAlwaysDuplicable, roughly).
ALWAYS_DUPLICABLE = frozenset("constant iota broadcast reshape bitcast".split())
# Consumers that read an operand element more than once: an expensive producer fused into
# them is recomputed for every reuse (XLA's ReusesOperandElements).
REUSES_ELEMENTS = frozenset("broadcast gather reduce-window pad dot".split())

_WHY_NOT = {
    "parameter": "a parameter: an input that is already in memory",
    "dot": "a library call (matrix multiply goes to Eigen/YNNPACK on CPU)",
    "convolution": "a library call (convolution goes to Eigen/oneDNN on CPU)",
    "custom-call": "an opaque custom call",
    "while": "control flow, which stays unfused",
    "conditional": "control flow, which stays unfused",
    "call": "a call, which stays unfused",
    "sort": "a sort, which runs as its own routine",
    "topk": "a top-k, which runs as its own kernel",
    "scatter": "an in-place scatter",
    "dynamic-update-slice": "an in-place update",
    "tuple": "a tuple: it only groups values",
    "get-tuple-element": "a view into a tuple",
    "reduce-window": "a windowed reduction, which XLA:CPU emits on its own",
    "rng": "a random-number op with state",
    "rng-bit-generator": "a random-number op with state",
    "fusion": "a fusion of another kind",
}


@dataclass(frozen=True)
class Verdict:
    """The answer for one producer/consumer pair: a rule name and a reason."""

    ok: bool
    rule: str
    reason: str
    kind: str = "kLoop"
    duplicate: bool = False


def reject(rule: str, reason: str) -> Verdict:
    return Verdict(False, rule, reason)


def why_not(opcode: str) -> str:
    return _WHY_NOT.get(opcode, f"{opcode}, which is not loop-fusible")


def loop_fusible(opcode: str) -> bool:
    """Whether an op can be computed inside a loop fusion, one output element at a time."""
    return is_elementwise(opcode) or opcode in DATA_MOVEMENT


def is_expensive(node) -> bool:
    """XLA's IsExpensive: transcendentals, divides, reductions, library calls..."""
    if isinstance(node, Group):
        return any(is_expensive(i) for i in node.body.values())
    info = OPCODES.get(node.opcode)
    return bool(info and info.expensive) or node.opcode in ("reduce", "dot", "convolution", "sort")


def grows(group: Group) -> bool:
    """Whether a fusion may take in more: a loop or input fusion of loop-fusible ops (and
    reduce heroes), not a custom fusion or a wrapper around a reduce-window or a dot."""
    return group.kind in ("kLoop", "kInput") and not group.foreign


def is_matrix_vector(dot) -> bool:
    """A dot whose result is a vector (a free dimension of size 1 or rank <= 1)."""
    dims = dot.shape.dims
    return len(dims) <= 1 or (len(dims) == 2 and 1 in dims)


def saved_for_output_fusion(g, name: str) -> bool:
    """An `add` one of whose operands is a matrix-vector dot used only by it."""
    node = g.nodes[name]
    if isinstance(node, Group) or node.opcode != "add":
        return False
    dots = [g.nodes[o] for o in node.operands if getattr(g.nodes[o], "opcode", None) == "dot"]
    return any(g.users[d.name] == {name} and is_matrix_vector(d) for d in dots)


def rereads_more_than_it_writes(g, name: str) -> bool:
    """XLA's "globally unfusible" test: more than one real (non-broadcast) input, and more
    input bytes than output bytes, so each duplicate re-reads more memory than it saves."""
    node = g.nodes[name]
    real = [o for o in set(node.operands)
            if getattr(g.nodes[o], "opcode", "fusion") != "broadcast" and getattr(g.shape(o), "rank", 0) > 0]
    return len(real) > 1 and sum(g.shape(o).byte_size for o in real) > node.shape.byte_size


# ---- the rules, in the order they are asked ----

def producer_is_input(g, producer: str, consumer: str, opts) -> Verdict | None:
    """A parameter is already in memory: there is nothing to compute inside a loop."""
    node = g.nodes[producer]
    if not isinstance(node, Group) and node.opcode == "parameter":
        return reject("parameter", f"{producer} is a parameter: an input already in memory")
    return None


def consumer_fusible(g, producer: str, consumer: str, opts) -> Verdict | None:
    """The consumer must be able to head a fusion: loop-fusible ops, a reduce (the hero of an
    input fusion), or an existing loop/input fusion."""
    node = g.nodes[consumer]
    if isinstance(node, Group):
        if node.kind == "kOutput":
            return reject("output_fusion_final",
                          f"{consumer} is an output fusion (dot + bias), which XLA:CPU does not grow")
        if not grows(node):
            return reject("consumer_not_fusible",
                          f"its consumer {consumer} is a {node.kind} fusion of {node.root_opcode}, which is not grown")
        return None
    if node.attrs.get("control-predecessors") or g.has_control_users(consumer):
        return reject("control_dependency", f"{consumer} has control dependencies")
    if node.opcode == "reduce" or (loop_fusible(node.opcode) and isinstance(node.shape, ArrayShape)):
        return None
    return reject("consumer_not_fusible", f"its consumer {consumer} is {why_not(node.opcode)}")


def output_fusion(g, producer: str, consumer: str, opts) -> Verdict | None:
    """XLA:CPU's only output fusion: `add(dot, bias)` for a matrix-vector dot with one user."""
    node, user = g.nodes[producer], g.nodes[consumer]
    if not opts.output_fusion or isinstance(node, Group) or node.opcode != "dot":
        return None
    if isinstance(user, Group) or user.opcode != "add" or g.users[producer] != {consumer}:
        return None
    if not is_matrix_vector(node):
        return None
    return Verdict(True, "output_fusion", "output fusion: a matrix-vector dot with its bias add",
                   kind="kOutput")


def producer_fusible(g, producer: str, consumer: str, opts) -> Verdict | None:
    """The producer must be computable inside the consumer's loop."""
    node = g.nodes[producer]
    if isinstance(node, Group):
        if node.kind == "kInput":
            return reject("reduce_producer",
                          f"{producer} ends in a reduce; a reduce is fused only as the root (hero) of its own fusion")
        if node.kind != "kLoop" or len(node.outputs) > 1 or not grows(node):
            return reject("producer_not_fusible", f"{producer} is a {node.kind} fusion of {node.root_opcode} "
                          f"with {len(node.outputs)} output(s), which is not merged")
        return None
    if node.opcode == "reduce":
        return reject("reduce_producer", "a reduce is fused only as the root (hero) of its own fusion; "
                      f"inside {consumer} it would be recomputed for every output element")
    if node.opcode == "constant" and isinstance(node.shape, ArrayShape) and node.shape.rank > 0:
        return reject("large_constant",
                      "a non-scalar constant stays a buffer (XLA:CPU fuses only scalar constants)")
    if not loop_fusible(node.opcode) or not isinstance(node.shape, ArrayShape):
        return reject("producer_not_fusible", f"{producer} is {why_not(node.opcode)}")
    if node.opcode == "concatenate" and len(node.operands) > opts.max_concatenate_operands:
        return reject("big_concatenate",
                      f"a concatenate of {len(node.operands)} operands (more than {opts.max_concatenate_operands})")
    if node.attrs.get("control-predecessors") or g.has_control_users(producer):
        return reject("control_dependency", f"{producer} has control dependencies")
    if opts.output_fusion and saved_for_output_fusion(g, producer):
        return reject("saved_for_output_fusion",
                      f"{producer} is kept for output fusion with its matrix-vector dot")
    return None


def reduce_layout(g, producer: str, consumer: str, opts) -> Verdict | None:
    """XLA:CPU: "Not fusing reductions over major dimensions" (they read memory with strides).
    XLA:GPU does fuse them: its column-reduction kernel reads them coalesced."""
    node = g.nodes[consumer]
    if isinstance(node, Group) or node.opcode != "reduce" or opts.fuse_major_reductions:
        return None
    minor = g.shape(node.operands[0]).layout[:1]
    if minor and minor[0] not in node.attrs.get("dimensions", ()):
        return reject("major_reduce",
                      f"{consumer} reduces a major dimension; XLA:CPU keeps such a reduction's input unfused")
    return None


def duplication(g, producer: str, consumer: str, opts) -> Verdict | None:
    """A producer with users besides this consumer is duplicated into it (the others keep the
    original). XLA:CPU allows that for cheap ops, never for expensive ones."""
    n = len(g.users[producer])
    if n == 1 and consumer in g.users[producer]:
        return None
    node = g.nodes[producer]
    if isinstance(node, Group):
        return reject("fusion_shared",
                      f"{producer} is a fusion with {n} users; fusions are merged, never duplicated")
    if is_expensive(node) and not getattr(opts, "duplicate_expensive", False):
        return reject("expensive_duplicate", f"{n} users, expensive ({node.opcode}), would be duplicated")
    if not opts.may_duplicate:
        return reject("would_duplicate", f"{n} users, and this fusion does not duplicate")
    if node.opcode not in ALWAYS_DUPLICABLE and rereads_more_than_it_writes(g, producer):
        return reject("would_reread",
                      f"{n} users, and a copy in each would re-read more bytes than it writes")
    return None


def recompute(g, producer: str, consumer: str, opts) -> Verdict | None:
    """An expensive producer under a broadcast (or gather, pad...) is recomputed per reuse."""
    if not is_expensive(g.nodes[producer]):
        return None
    node = g.nodes[consumer]
    if isinstance(node, Group):
        reuses = node.reuses(producer, REUSES_ELEMENTS)
    else:
        reuses = node.opcode in REUSES_ELEMENTS
    if reuses:
        return reject("recompute",
                      f"{consumer} reads each element several times, so {producer} would be recomputed")
    return None


def limits(g, producer: str, consumer: str, opts) -> Verdict | None:
    """Bound the operands (buffers a fused loop reads) and the size (code) of a fusion."""
    operands, size = g.after_fusing(producer, consumer)
    if operands > opts.max_operands:
        return reject("too_many_operands",
                      f"the fusion would read {operands} operands (limit {opts.max_operands})")
    if size > opts.max_instructions:
        return reject("too_large",
                      f"the fusion would hold {size} instructions (limit {opts.max_instructions})")
    return None


def lonely_constant(g, producer: str, consumer: str, opts) -> Verdict | None:
    """XLA:CPU: "Not fusing: insufficient non-constant nodes" (wait until the consumer is a fusion)."""
    if g.nodes[producer].opcode == "constant" and not isinstance(g.nodes[consumer], Group):
        return reject("lonely_constant", "a fusion of just a constant and one op gains nothing")
    return None


RULES = (producer_is_input, consumer_fusible, producer_fusible, reduce_layout, duplication, recompute, limits,
         lonely_constant)
# Rejections that are heuristics, not correctness: a what-if experiment may switch them off
# (`disabled_rules`), and the pair is then asked of the remaining rules. "output_fusion" is
# the one rule that says yes early; disabling it leaves the dot unfused.
HEURISTIC_RULES = ("output_fusion", "major_reduce", "expensive_duplicate", "would_duplicate",
                   "would_reread", "recompute", "too_many_operands", "too_large", "lonely_constant")


def should_fuse(g, producer: str, consumer: str, opts) -> Verdict:
    """Ask every rule; the first objection wins. Otherwise fuse (and say how)."""
    disabled = getattr(opts, "disabled_rules", ())
    accepted = None if "output_fusion" in disabled else output_fusion(g, producer, consumer, opts)
    if accepted is not None:
        return accepted
    for rule in RULES:
        verdict = rule(g, producer, consumer, opts)
        if verdict is not None and verdict.rule not in disabled:
            return verdict
    return accept(g, producer, consumer)


def accept(g, producer: str, consumer: str) -> Verdict:
    """A yes, with the fusion kind and a learner's reason."""
    node, target = g.nodes[producer], g.nodes[consumer]
    hero = target.kind if isinstance(target, Group) else ("kInput" if target.opcode == "reduce" else "kLoop")
    label = "input fusion into the reduce (the hero)" if hero == "kInput" else "loop fusion"
    if isinstance(node, Group):
        return Verdict(True, "merge_fusions", f"{label}, merged the loop fusion {node.name} into it", kind=hero)
    what = "elementwise" if is_elementwise(node.opcode) else node.opcode
    others = len(g.users[producer]) - 1
    if others:
        return Verdict(True, "duplicate_cheap", f"{label}, duplicated: a cheap {what} producer, its {others} "
                       f"other user{'s' if others > 1 else ''} keep{'' if others > 1 else 's'} the original",
                       kind=hero, duplicate=True)
    return Verdict(True, "loop_fusion" if hero == "kLoop" else "input_fusion",
                   f"{label}, {what} producer with one user", kind=hero)
