"""The reference evaluator: runs HLO with numpy, following XLA's HloEvaluator semantics.

It is the ground truth every other stage is checked against (passes, CPU and GPU backends),
so it favours XLA's exact rules over speed, yet stays vectorized so that 128x256 arrays and
constant folding are quick.

    evaluate(module, *args)                    the ENTRY computation on numpy arguments
    evaluate_computation(module, comp, args)   one computation on given values
    evaluate_instruction(module, inst, ops)    one instruction on its operands' values

Files: api.py (the entry points) checks arguments with arguments.py; core.py walks a
computation; table.py maps each opcode to its handler; the handlers live in elementwise.py
(with float_math.py and int_math.py), compare.py, convert.py, data_movement.py, dot.py,
reductions.py, windows.py, gather_scatter.py, sorting.py and control_flow.py;
scalar_calls.py applies a scalar computation (a reducer, a comparator) to whole arrays.
"""

from .api import evaluate, evaluate_computation, evaluate_instruction

__all__ = ["evaluate", "evaluate_computation", "evaluate_instruction"]
