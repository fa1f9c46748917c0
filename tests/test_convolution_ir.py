"""convolution's attributes (dim_labels, window, group counts) and its shape rule."""

from __future__ import annotations

import pytest

from hloscope.errors import HloParseError, HloVerifierError
from hloscope.ir.conv_dims import ConvDimLabels, parse_dim_labels
from hloscope.ir.parser import parse_hlo
from hloscope.ir.shape import ArrayShape
from hloscope.ir.shape_inference import infer_shape


def _module(lhs: str, rhs: str, out: str, attrs: str) -> str:
    return (f"HloModule m\n\nENTRY e {{\n  a = {lhs} parameter(0)\n  b = {rhs} parameter(1)\n"
            f"  ROOT c = {out} convolution(a, b), {attrs}\n}}\n")


@pytest.mark.parametrize("text", [
    "b01f_01io->b01f", "bf01_oi01->bf01", "bf0_oi0->bf0", "b012f_012io->b012f", "1bf0_0o1i->f0b1",
    "bf_io->bf", "f01b_i01o->01bf",
])
def test_dim_labels_print_back(text):
    assert str(parse_dim_labels(text)) == text


def test_dim_labels_positions():
    labels = parse_dim_labels("1bf0_0o1i->f0b1")
    assert labels == ConvDimLabels(1, 2, (3, 0), 3, 1, (0, 2), 2, 0, (1, 3))


@pytest.mark.parametrize("text", ["b01f_01io", "b01f_01xo->b01f", "b0f_01io->b01f", "bb1f_01io->b01f"])
def test_bad_dim_labels_are_refused(text):
    with pytest.raises(ValueError, match="dim_labels"):
        parse_dim_labels(text)


def test_convolution_round_trips_in_xla_syntax():
    text = _module("f32[1,9,9,4]", "f32[3,3,2,6]", "f32[1,9,5,6]",
                   "window={size=3x3 stride=2x4 pad=1_-1x2_1 lhs_dilate=2x1 rhs_dilate=2x3 rhs_reversal=1x0}, "
                   "dim_labels=b01f_01io->b01f, feature_group_count=2")
    module = parse_hlo(text)
    conv = module.entry_computation.root_instruction
    assert isinstance(conv.attr("dim_labels"), ConvDimLabels)
    assert conv.attr("feature_group_count") == 2
    assert parse_hlo(module.to_text()).entry_computation.root_instruction == conv
    assert ("window={size=3x3 stride=2x4 pad=1_-1x2_1 lhs_dilate=2x1 rhs_dilate=2x3 rhs_reversal=1x0}, "
            "dim_labels=b01f_01io->b01f, feature_group_count=2") in module.to_text()


def test_a_bad_dim_labels_is_a_parse_error_at_its_place():
    with pytest.raises(HloParseError, match="must hold 'i' and 'o'"):
        parse_hlo(_module("f32[1,5,5,2]", "f32[3,3,2,3]", "f32[1,3,3,3]",
                          "window={size=3x3}, dim_labels=b01f_01ix->b01f"))


def _infer(lhs, rhs, labels="b01f_01io->b01f", window="size=3x3", **attrs):
    module = parse_hlo(_module(f"f32{list(lhs)}".replace(" ", ""), f"f32{list(rhs)}".replace(" ", ""),
                               "f32[1,1,1,1]", f"window={{{window}}}, dim_labels={labels}"))
    conv = module.entry_computation.root_instruction
    shapes = [ArrayShape("f32", tuple(lhs)), ArrayShape("f32", tuple(rhs))]
    return infer_shape("convolution", shapes, {**conv.attrs, **attrs})


def test_output_shape_follows_xla():
    assert _infer((2, 7, 6, 3), (3, 3, 3, 5), window="size=3x3 stride=2x2 pad=1_1x1_1").dims == (2, 4, 3, 5)
    # transposed (lhs-dilated) and atrous (rhs-dilated) windows, negative padding
    assert _infer((1, 4, 5, 2), (3, 3, 2, 3), window="size=3x3 pad=2_2x1_2 lhs_dilate=2x3").dims == (1, 9, 14, 3)
    assert _infer((1, 9, 8, 2), (3, 2, 2, 3), window="size=3x2 stride=1x2 pad=2_1x0_3 rhs_dilate=2x3").dims \
        == (1, 8, 4, 3)
    assert _infer((1, 8, 7, 2), (2, 2, 2, 3), window="size=2x2 pad=-1_0x1_-2").dims == (1, 6, 5, 3)
    assert _infer((4, 5, 5, 3), (3, 3, 3, 4), batch_group_count=2).dims == (2, 3, 3, 4)
    assert _infer((2, 5, 6, 1), (3, 3, 2, 4), labels="f01b_01io->b01f").dims == (1, 3, 4, 4)


@pytest.mark.parametrize("lhs, rhs, attrs, message", [
    ((1, 5, 5, 4), (3, 3, 3, 8), {}, r"lhs feature dimension \(4\) must equal the rhs input feature dimension \(3\)"),
    ((1, 5, 5, 6), (3, 3, 2, 8), {"feature_group_count": 4}, r"multiple of feature_group_count \(4\)"),
    ((1, 5, 5, 4), (3, 3, 2, 3), {"feature_group_count": 2}, r"output feature dimension \(3\) must be a multiple"),
    ((3, 5, 5, 4), (3, 3, 4, 4), {"batch_group_count": 2}, r"batch dimension \(3\) must be a multiple"),
    ((2, 5, 5, 4), (3, 3, 4, 3), {"batch_group_count": 2}, r"output feature dimension \(3\) must be a multiple of batch"),
    ((2, 5, 5, 4), (3, 3, 2, 4), {"batch_group_count": 2, "feature_group_count": 2}, "cannot have both"),
    ((2, 5, 5, 4), (3, 3, 4, 4), {"feature_group_count": 0}, "must be >= 1"),
    ((2, 5, 5, 4), (2, 3, 4, 4), {}, "window size 3 in spatial dimension 0 differs"),
])
def test_inconsistent_convolutions_are_refused_clearly(lhs, rhs, attrs, message):
    with pytest.raises(HloVerifierError, match=message):
        _infer(lhs, rhs, **attrs)


def test_the_verifier_checks_the_declared_shape():
    text = _module("f32[1,5,5,2]", "f32[3,3,2,3]", "f32[1,5,5,3]", "window={size=3x3}, dim_labels=b01f_01io->b01f")
    with pytest.raises(HloVerifierError, match=r"declared shape f32\[1,5,5,3\] but inferred f32\[1,3,3,3\]"):
        parse_hlo(text).verify()
