"""Two fused ops: the passes over a row that softmax and variance would otherwise make twice.

Each op of a program is a pass over the block's rows in the first-level cache; a value made
by one op and read by the next costs a store and a load of every element. XNNPACK's
softmax and normalization kernels fuse the two places where that adds up, and so do these:

    exp-minus-and-sum   e = exponential(subtract(x, m)); s = reduce-add(e, init)
                        -> e, s = exp-minus-and-sum x, m, from init       softmax, logsumexp
    sum-of-products     s = reduce-add(multiply(a, b), init)
                        -> s = sum-of-products a, b, from init            variance, sums of squares

(m one value per row, x, a and b vectors). The fused op computes what the ops did, element
for element: the difference, the exponential and the product are rounded as before, and
the sum is the same reassociated sum. It runs where its first op ran, so the reduction's
initial value must be known there; the intermediate (the difference, the product) must have
no other reader and no buffer to reach.
"""

from __future__ import annotations

from .drafts import Draft, Value


def fuse(drafts: list[Draft], values: list[Value]) -> list[Draft]:
    """The drafts with each pattern above replaced by its fused op."""
    readers = _readers(drafts)
    made_at = {out: k for k, d in enumerate(drafts) for out in d.outs}
    replaced: dict[int, Draft | None] = {}  # position -> its new draft (None: gone)
    for k, d in enumerate(drafts):
        if d.kind != "reduce" or d.op != "add" or k in replaced:
            continue
        source, init = d.ins
        producer = made_at.get(source)
        if producer is None or producer in replaced:
            continue
        p = drafts[producer]
        if p.kind == "binary" and p.op == "multiply" and _only_for(source, k, readers, values):
            if _known_at(init, producer, made_at) and all(values[v].vector for v in p.ins):
                replaced[producer] = Draft("fused", "sum-of-products", d.outs, (*p.ins, init), d.source, d.member)
                replaced[k] = None
            continue
        if p.kind == "unary" and p.op == "exponential":
            difference = made_at.get(p.ins[0])
            if difference is None or difference in replaced:
                continue
            q = drafts[difference]
            if (q.kind == "binary" and q.op == "subtract" and _only_for(p.ins[0], producer, readers, values)
                    and values[q.ins[0]].vector and not values[q.ins[1]].vector
                    and _known_at(init, difference, made_at)):
                replaced[difference] = None
                replaced[producer] = Draft("fused", "exp-minus-and-sum", (source, *d.outs), (*q.ins, init),
                                           p.source, p.member)
                replaced[k] = None
    return [replaced.get(k, d) for k, d in enumerate(drafts) if replaced.get(k, d) is not None]  # pyright: ignore[reportReturnType]


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
