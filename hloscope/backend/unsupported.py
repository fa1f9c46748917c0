"""The one wording of "this target cannot lower that", for every emitter of every target.

    not supported on gpu: scatter (instruction scatter.5)
    not supported on cpu: gather with operand_batching_dims (instruction gather.2)
    not supported on gpu: cosine on s32

The message names the target that was asked for (the emit context and the kernel choices
carry its name), what it lacks, and the instruction where the emitter knows it.
`hloscope.jit` catches these errors and runs the reference evaluator instead.
"""

from __future__ import annotations

from ..errors import NotSupportedError


def unsupported(target: str, what: str, instruction: str = "") -> NotSupportedError:
    """The error saying `target` cannot lower `what` (in `instruction`, when given)."""
    where = f" (instruction {instruction})" if instruction else ""
    return NotSupportedError(f"not supported on {target}: {what}{where}")
