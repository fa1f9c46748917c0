"""Three fused ops: the passes over a row that softmax, variance and a normalization's scale
would otherwise make two or three times.

Each op of a program is a pass over the block's rows in the first-level cache; a value made
by one op and read by the next costs a store and a load of every element. XNNPACK's
softmax and normalization kernels fuse the two places where that adds up, and so do these:

    exp-minus-and-sum   e = exponential(subtract(x, m)); s = reduce-add(e, init)
                        -> e, s = exp-minus-and-sum x, m, from init       softmax, logsumexp
    sum-of-products     s = reduce-add(multiply(a, b), init)
                        -> s = sum-of-products a, b, from init            variance, sums of squares
    scale-and-shift     y = add(multiply(multiply(a, s), g), c)
                        -> y = scale-and-shift a, s, g, c                 layer norm's (x - mean) * rstd * g + b

(m and s one value per row, x, a, b, g and c vectors; the last two operands of a multiply or
an add in either order). The fused op computes what the ops did, element for element: the
difference, the exponential and each product are rounded as before, and the sum is the
same reassociated sum. It runs where its first op ran, so the reduction's initial value
must be known there (scale-and-shift's three ops must follow one another); each
intermediate (the difference, the products) must have no other reader and no buffer to reach.
"""

from __future__ import annotations

from .drafts import Draft, Value


def fuse(drafts: list[Draft], values: list[Value]) -> list[Draft]:
    """The drafts with each pattern above replaced by its fused op."""
    readers = _readers(drafts)
    made_at = {out: k for k, d in enumerate(drafts) for out in d.outs}
    replaced: dict[int, Draft | None] = {}  # position -> its new draft (None: gone)
    for k, d in enumerate(drafts):
        if k not in replaced and d.kind == "reduce" and d.op == "add":
            _fused_sum(k, drafts, values, readers, made_at, replaced)
        elif k not in replaced and d.kind == "binary" and d.op == "add":
            _scale_and_shift(k, drafts, values, readers, made_at, replaced)
    return [replaced.get(k, d) for k, d in enumerate(drafts) if replaced.get(k, d) is not None]  # pyright: ignore[reportReturnType]


def _fused_sum(k, drafts, values, readers, made_at, replaced) -> None:
    """reduce-add of a product or of exp(x - m) at drafts[k] -> sum-of-products, exp-minus-and-sum."""
    d = drafts[k]
    source, init = d.ins
    producer = made_at.get(source)
    if producer is None or producer in replaced:
        return
    p = drafts[producer]
    if p.kind == "binary" and p.op == "multiply" and _only_for(source, k, readers, values):
        if _known_at(init, producer, made_at) and all(values[v].vector for v in p.ins):
            replaced[producer] = Draft("fused", "sum-of-products", d.outs, (*p.ins, init), d.source, d.member)
            replaced[k] = None
        return
    if p.kind == "unary" and p.op == "exponential":
        difference = made_at.get(p.ins[0])
        if difference is None or difference in replaced:
            return
        q = drafts[difference]
        if (q.kind == "binary" and q.op == "subtract" and _only_for(p.ins[0], producer, readers, values)
                and values[q.ins[0]].vector and not values[q.ins[1]].vector
                and _known_at(init, difference, made_at)):
            replaced[difference] = None
            replaced[producer] = Draft("fused", "exp-minus-and-sum", (source, *d.outs), (*q.ins, init),
                                       p.source, p.member)
            replaced[k] = None


def _scale_and_shift(k, drafts, values, readers, made_at, replaced) -> None:
    """add(multiply(multiply(a, s), g), c) at drafts[k] -> scale-and-shift a, s, g, c."""
    shifted = _fed_by_product(k, "add", drafts, values, readers, made_at, replaced)
    if shifted is None:
        return
    outer, shift = shifted
    scaled = _fed_by_product(outer, "multiply", drafts, values, readers, made_at, replaced)
    if scaled is None:
        return
    inner, gain = scaled
    a, s = drafts[inner].ins
    if (inner, outer) == (k - 2, k - 1) and values[a].vector and not values[s].vector:
        first = drafts[inner]
        replaced[inner] = Draft("fused", "scale-and-shift", drafts[k].outs, (a, s, gain, shift), first.source, first.member)
        replaced[outer] = replaced[k] = None


def _fed_by_product(k, op, drafts, values, readers, made_at, replaced) -> tuple[int, int] | None:
    """drafts[k] = op(x, v) or op(v, x), v a vector and x a vector made by a multiply that only
    this op reads: (where x is made, v), else None."""
    d = drafts[k]
    if d.kind != "binary" or d.op != op or k in replaced or not all(values[v].vector for v in d.ins):
        return None
    for x, v in (d.ins, d.ins[::-1]):
        producer = made_at.get(x)
        if (producer is not None and producer not in replaced and drafts[producer].kind == "binary"
                and drafts[producer].op == "multiply" and _only_for(x, k, readers, values)):
            return producer, v
    return None


def _readers(drafts: list[Draft]) -> dict[int, list[int]]:
    readers: dict[int, list[int]] = {}
    for k, d in enumerate(drafts):
        for v in d.ins:
            readers.setdefault(v, []).append(k)
    return readers


def _only_for(value: int, reader: int, readers: dict[int, list[int]], values: list[Value]) -> bool:
    """`value` is read by `reader` alone and reaches no buffer."""
    return readers.get(value) == [reader] and values[value].home is None


def _known_at(value: int, position: int, made_at: dict[int, int]) -> bool:
    """`value` exists before the op at `position` (a buffer's, a constant, or made earlier)."""
    return made_at.get(value, -1) < position
