"""Fresh instruction names for passes: the module's one NameUniquer (ir/builder/names.py).

A pass that creates instructions asks `NameUniquer.for_module(module)` for names: it knows
every name in the module, and its numbers only grow, so a new name never clashes with an
old one (even one the pass removes):

    module holds add.3, add.7, multiply.2
    names.next("add") -> add.8;  names.next("add") -> add.9;  names.next("tuple") -> tuple.1
"""

from ..ir.builder.names import NameUniquer, base_name, split_name

__all__ = ["NameUniquer", "base_name", "split_name"]
