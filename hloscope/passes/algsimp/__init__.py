"""algsimp: the algebraic simplifier, a table of small named rewrite rules.

    simplifier.py    AlgebraicSimplifier ("algsimp"): one sweep that tries each opcode's rules
    rules.py         arithmetic, select, compare, convert and copy (`x + 0 = x`, ...)
    shape_rules.py   data movement: reshape, transpose, broadcast, slice, pad, reduce, dot

`from hloscope.passes.algsimp import AlgebraicSimplifier`; `default_rules()` is the table the
pass starts from (every rule of both rule files, by opcode).
"""

from .simplifier import AlgebraicSimplifier, default_rules

__all__ = ["AlgebraicSimplifier", "default_rules"]
