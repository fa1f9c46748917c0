"""Records convolution cases from JAX: `<name>.hlo` (XLA's own HLO text of the jitted
lax.conv_general_dilated) and `<name>.npz` (lhs, rhs and JAX's output on XLA:CPU).

Run once with JAX installed; tests/test_evaluator_convolution.py reads the files without JAX:
    PYTHONPATH=. python tests/conv_cases/generate.py
"""

from __future__ import annotations

from pathlib import Path

import jax
import numpy as np
from jax import lax

HERE = Path(__file__).parent

# name: lhs shape, rhs shape, dtype, conv_general_dilated keyword arguments
CASES = {
    "conv1d_nwc_stride2": ((2, 9, 3), (3, 3, 4), "f32",
                           dict(window_strides=(2,), padding=((1, 2),), dimension_numbers=("NWC", "WIO", "NWC"))),
    "conv2d_nhwc_3x3_s2_p1": ((2, 7, 6, 3), (3, 3, 3, 5), "f32",
                              dict(window_strides=(2, 2), padding=((1, 1), (1, 1)),
                                   dimension_numbers=("NHWC", "HWIO", "NHWC"))),
    "conv2d_nchw_oihw_valid": ((2, 3, 6, 5), (4, 3, 2, 3), "f32",
                               dict(window_strides=(1, 1), padding=((0, 0), (0, 0)),
                                    dimension_numbers=("NCHW", "OIHW", "NCHW"))),
    "conv2d_lhs_dilated_transposed": ((1, 2, 4, 5), (3, 2, 3, 3), "f32",
                                      dict(window_strides=(1, 1), padding=((2, 2), (1, 2)), lhs_dilation=(2, 3),
                                           dimension_numbers=("NCHW", "OIHW", "NCHW"))),
    "conv2d_rhs_dilated_atrous": ((1, 9, 8, 2), (3, 2, 2, 3), "f32",
                                  dict(window_strides=(1, 2), padding=((2, 1), (0, 3)), rhs_dilation=(2, 3),
                                       dimension_numbers=("NHWC", "HWIO", "NHWC"))),
    "conv2d_negative_padding": ((1, 8, 7, 2), (2, 2, 2, 3), "f32",
                                dict(window_strides=(1, 1), padding=((-1, 0), (1, -2)),
                                     dimension_numbers=("NHWC", "HWIO", "NHWC"))),
    "conv2d_depthwise": ((2, 6, 6, 4), (3, 3, 1, 8), "f32",
                         dict(window_strides=(1, 1), padding=((1, 1), (1, 1)), feature_group_count=4,
                              dimension_numbers=("NHWC", "HWIO", "NHWC"))),
    "conv2d_groups2": ((1, 4, 5, 6), (2, 2, 3, 4), "f32",
                       dict(window_strides=(1, 1), padding=((0, 1), (1, 0)), feature_group_count=2,
                            dimension_numbers=("NHWC", "HWIO", "NHWC"))),
    "conv2d_batch_group2": ((4, 5, 5, 3), (3, 3, 3, 4), "f32",
                            dict(window_strides=(1, 1), padding=((1, 1), (1, 1)), batch_group_count=2,
                                 dimension_numbers=("NHWC", "HWIO", "NHWC"))),
    "conv2d_batch_group_weight_grad": ((2, 6, 6, 3), (4, 4, 2, 6), "f32",
                                       dict(window_strides=(1, 1), padding=((0, 0), (0, 0)), batch_group_count=3,
                                            dimension_numbers=("CHWN", "HWIO", "CHWN"))),
    "conv3d_ndhwc": ((1, 4, 5, 4, 2), (2, 3, 2, 2, 3), "f32",
                     dict(window_strides=(1, 2, 1), padding=((1, 0), (1, 1), (0, 1)),
                          dimension_numbers=("NDHWC", "DHWIO", "NDHWC"))),
    "conv2d_odd_labels": ((5, 2, 3, 6), (3, 4, 2, 3), "f32",
                          dict(window_strides=(1, 1), padding=((1, 1), (0, 1)),
                               dimension_numbers=("HNCW", "WOHI", "CWNH"))),
    "conv2d_int32": ((1, 5, 5, 2), (3, 3, 2, 3), "s32",
                     dict(window_strides=(2, 1), padding=((1, 1), (0, 0)),
                          dimension_numbers=("NHWC", "HWIO", "NHWC"))),
    "conv2d_int8_to_int32": ((1, 5, 5, 2), (3, 3, 2, 3), "s8",
                             dict(window_strides=(1, 1), padding=((1, 1), (1, 1)),
                                  dimension_numbers=("NHWC", "HWIO", "NHWC"), preferred_element_type=np.int32)),
    "conv2d_bf16_to_f32": ((1, 6, 6, 3), (3, 3, 3, 2), "bf16",
                           dict(window_strides=(1, 1), padding=((1, 1), (1, 1)),
                                dimension_numbers=("NHWC", "HWIO", "NHWC"), preferred_element_type=np.float32)),
    "conv2d_gemm_16_to_24": ((2, 9, 9, 16), (3, 3, 16, 24), "f32",
                             dict(window_strides=(1, 1), padding=((1, 1), (1, 1)),
                                  dimension_numbers=("NHWC", "HWIO", "NHWC"))),
    "conv1d_gemm_dilated": ((2, 20, 12), (3, 12, 10), "f32",
                            dict(window_strides=(2,), padding=((3, -1),), lhs_dilation=(2,), rhs_dilation=(2,),
                                 dimension_numbers=("NWC", "WIO", "NWC"))),
    "conv2d_f64": ((1, 6, 6, 3), (3, 3, 3, 2), "f64",
                   dict(window_strides=(2, 2), padding=((0, 1), (1, 0)),
                        dimension_numbers=("NHWC", "HWIO", "NHWC"))),
}

NUMPY = {"f32": np.float32, "f64": np.float64, "s32": np.int32, "s8": np.int8, "bf16": jax.numpy.bfloat16}


def _data(shape, dtype, rng):
    if dtype in ("s32", "s8"):
        return rng.integers(-4, 5, shape).astype(NUMPY[dtype])
    return rng.standard_normal(shape).astype(NUMPY[dtype])


def record(name, lhs_shape, rhs_shape, dtype, kwargs, rng, reverse=None) -> None:
    """One case: the HLO XLA prints for it, its inputs and JAX's output."""
    lhs, rhs = _data(lhs_shape, dtype, rng), _data(rhs_shape, dtype, rng)
    conv = lambda a, b: lax.conv_general_dilated(a, b, **kwargs)  # noqa: E731
    text = jax.jit(conv).lower(lhs, rhs).as_text(dialect="hlo")
    out = np.asarray(jax.jit(conv)(lhs, rhs))
    if reverse is not None:  # XLA's rhs_reversal: the same as convolving with the flipped kernel
        flipped = np.flip(np.asarray(rhs), axis=reverse)
        out = np.asarray(jax.jit(conv)(lhs, flipped))
        text = _add_reversal(text, len(kwargs["window_strides"]))
    (HERE / f"{name}.hlo").write_text(text)
    np.savez(HERE / f"{name}.npz", lhs=_plain(lhs), rhs=_plain(rhs), out=_plain(out))


def _add_reversal(text: str, spatial: int) -> str:
    return text.replace("window={", "window={rhs_reversal=" + "x".join("1" for _ in range(spatial)) + " ", 1)


def _plain(x):
    """bf16 is stored as f32 (npz has no bf16); the test converts it back."""
    x = np.asarray(x)
    return x.astype(np.float32) if x.dtype == jax.numpy.bfloat16 else x


def main() -> None:
    rng = np.random.default_rng(0)
    for name, (ls, rs, dtype, kwargs) in CASES.items():
        record(name, ls, rs, dtype, kwargs, rng)
    record("conv2d_rhs_reversal", (1, 5, 6, 2), (3, 2, 2, 3), "f32",
           dict(window_strides=(1, 1), padding=((1, 1), (0, 1)), dimension_numbers=("NHWC", "HWIO", "NHWC")),
           rng, reverse=(0, 1))


if __name__ == "__main__":
    main()
