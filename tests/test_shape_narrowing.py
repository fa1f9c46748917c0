"""Narrowing a Shape to the case the code expects: as_array, as_tuple and inst.array_shape."""

import pytest

from hloscope.errors import HloVerifierError
from hloscope.ir import Instruction, TokenShape, TupleShape
from hloscope.ir.shape import array


def test_each_case_narrows_to_itself():
    a = array("f32", 2, 3)
    t = TupleShape((a, TokenShape()))
    assert a.as_array("x") is a
    assert t.as_tuple("x") is t


@pytest.mark.parametrize(
    ("shape", "narrow", "expected"),
    [
        (TupleShape((array("f32", 2),)), "as_array", "an array"),
        (TokenShape(), "as_array", "an array"),
        (array("f32", 2), "as_tuple", "a tuple"),
        (TokenShape(), "as_tuple", "a tuple"),
    ],
)
def test_wrong_case_names_instruction_and_shape(shape, narrow, expected):
    with pytest.raises(HloVerifierError) as info:
        getattr(shape, narrow)("add.3")
    assert info.value.instruction == "add.3"
    assert str(info.value) == f"add.3 has shape {shape} where {expected} shape is expected"


def test_instruction_array_shape():
    ok = Instruction("add.1", "add", array("f32", 4))
    assert ok.array_shape.dims == (4,)
    bad = Instruction("tuple.2", "tuple", TupleShape((array("f32", 4),)))
    with pytest.raises(HloVerifierError, match=r"^tuple\.2 has shape \(f32\[4\]\{0\}\) where an array"):
        bad.array_shape
