"""custom-call's own attributes that XLA's parser checks: `api_version` and `schedule` are
names from fixed lists, and `operand_layout_constraints={f32[2,3]{0,1}, ...}` gives one
shape per operand, each the operand's shape up to layout:

    custom-call(p), custom_call_target="foo", api_version=API_VERSION_TYPED_FFI,
                    operand_layout_constraints={f32[2,3]{0,1}}

API_VERSION_UNSPECIFIED is refused as XLA refuses it ("Invalid API version").
(XLA: "Expected 1 operand layout constraints, 2 given"; "Operand layout constraint shape
... for operand 0 is not compatible with operand shape ...".)
"""

from __future__ import annotations

API_VERSIONS = ("API_VERSION_ORIGINAL", "API_VERSION_STATUS_RETURNING",
                "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI")
SCHEDULES = ("SCHEDULE_NONE", "SCHEDULE_LATEST", "SCHEDULE_EARLIEST")
CUSTOM_CALL_ENUMS = {"api_version": API_VERSIONS, "schedule": SCHEDULES}


def constraint_count_problem(given: int, operands: int) -> str | None:
    """Why `given` operand_layout_constraints do not fit a custom-call with `operands` operands."""
    if given == operands:
        return None
    return f"operand_layout_constraints gives {given} shapes for {operands} operands (one per operand)"
