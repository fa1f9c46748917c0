"""A convolution described in words (viz/conv_words.py) and shown in the instruction details."""

from __future__ import annotations

import pytest

from hloscope.ir.parser import parse_hlo
from hloscope.viz.conv_words import describe_convolution
from hloscope.viz.instruction_html import instruction_details


def _conv(lhs, rhs, out, attrs):
    return parse_hlo(f"HloModule m\n\nENTRY e {{\n  a = f32{lhs} parameter(0)\n  b = f32{rhs} parameter(1)\n"
                     f"  ROOT c = f32{out} convolution(a, b), {attrs}\n}}\n")


@pytest.mark.parametrize("lhs, rhs, out, attrs, words", [
    ("[1,56,56,64]", "[3,3,64,128]", "[1,28,28,128]",
     "window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f",
     "2-D convolution, NHWC input, HWIO kernel 3x3, stride 2, padding 1 on each side, 64 -> 128 features, groups 1"),
    ("[8,3,32,32]", "[16,3,5,5]", "[8,16,28,28]", "window={size=5x5}, dim_labels=bf01_oi01->bf01",
     "2-D convolution, NCHW input, OIHW kernel 5x5, stride 1, no padding, 3 -> 16 features, groups 1"),
    ("[1,9,9,32]", "[3,3,1,32]", "[1,9,9,32]",
     "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f, feature_group_count=32",
     "2-D convolution, NHWC input, HWIO kernel 3x3, stride 1, padding 1 on each side, 32 -> 32 features, "
     "groups 32 (depthwise)"),
    ("[2,20,4]", "[3,4,6]", "[2,41,6]", "window={size=3 pad=2_-1 lhs_dilate=2 rhs_dilate=2 rhs_reversal=1}, "
     "dim_labels=b0f_0io->b0f",
     "1-D convolution, NWC input, WIO kernel 3, stride 1, padding 2_-1 (low_high per dimension), input dilated by 2 "
     "(a transposed convolution), kernel dilated by 2 (atrous), kernel reversed, 4 -> 6 features, groups 1"),
    ("[2,6,6,3]", "[4,4,2,6]", "[6,3,3,1]", "window={size=4x4}, dim_labels=f01b_01io->f01b, batch_group_count=3",
     "2-D convolution, CHWN input, HWIO kernel 4x4, stride 1, no padding, 2 -> 6 features, "
     "batch groups 3 (the weight-gradient form)"),
])
def test_convolutions_in_words(lhs, rhs, out, attrs, words):
    module = _conv(lhs, rhs, out, attrs)
    comp = module.entry_computation
    assert describe_convolution(comp.root_instruction, comp) == words


def test_the_instruction_details_say_it():
    module = _conv("[1,56,56,64]", "[3,3,64,128]", "[1,28,28,128]",
                   "window={size=3x3 stride=2x2 pad=1_1x1_1}, dim_labels=b01f_01io->b01f")
    html = instruction_details(module, [], "c")
    assert "2-D convolution, NHWC input, HWIO kernel 3x3, stride 2, padding 1 on each side" in html
