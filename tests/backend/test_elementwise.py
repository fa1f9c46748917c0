"""Every elementwise opcode, for every element-type family, natively vs. the evaluator.

One module per (family, arity) computes all the family's ops as a tuple, so a handful of
compiles cover the whole scalar table (backend/scalar_ops.py).
"""

import numpy as np
import pytest

from backend_helpers import NUMPY, check_against_evaluator, module

FLOAT_UNARY = ("abs negate exponential exponential-minus-one log log-plus-one sqrt rsqrt cbrt tanh "
               "logistic sine cosine tan floor ceil round-nearest-even round-nearest-afz sign is-finite "
               "erf copy").split()
FLOAT_BINARY = "add subtract multiply divide remainder maximum minimum power atan2".split()
INT_UNARY = "abs negate sign not popcnt count-leading-zeros copy".split()
INT_BINARY = ("add subtract multiply divide remainder maximum minimum power and or xor shift-left "
              "shift-right-logical shift-right-arithmetic").split()
PRED_BINARY = "and or xor add multiply maximum minimum power".split()
DIRECTIONS = "EQ NE LT LE GT GE".split()
RTOL = {"f32": 2e-6, "f64": 1e-13, "f16": 2e-3, "bf16": 1e-2}

rng = np.random.default_rng(7)


def float_inputs(dtype, n=256):
    x = (rng.standard_normal(n) * 4).astype(np.float64)
    special = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -2.5, 2.5, 1e-40, 3.0, 100.0, -100.0]
    x[: len(special)] = special
    return x.astype(NUMPY[dtype])


def int_inputs(dtype, n=256):
    info = np.iinfo(NUMPY[dtype])
    x = rng.integers(info.min, info.max, n, dtype=NUMPY[dtype], endpoint=True)
    special = [0, 1, 2, 3, info.max, info.min, 7]
    if info.min < 0:
        special += [-1, -2, -3]
    x[: len(special)] = special
    return x


def tuple_module(dtype, ops, arity, n, out_dtype=None):
    params = [f"p{i} = {dtype}[{n}] parameter({i})" for i in range(arity)]
    args = ", ".join(f"p{i}" for i in range(arity))
    lines = [f"r{k} = {out_dtype or dtype}[{n}] {op}({args})" for k, op in enumerate(ops)]
    shapes = ", ".join(f"{out_dtype or dtype}[{n}]" for _ in ops)
    names = ", ".join(f"r{k}" for k in range(len(ops)))
    return module("\n".join(params + lines + [f"t = ({shapes}) tuple({names})"]))


@pytest.mark.hosts
@pytest.mark.parametrize("dtype", ["f32", "f64", "f16", "bf16"])
def test_float_unary(dtype):
    ops = [op for op in FLOAT_UNARY if op != "is-finite"]
    x = float_inputs(dtype)
    check_against_evaluator(tuple_module(dtype, ops, 1, x.size), [x], rtol=RTOL[dtype], atol=1e-30)
    check_against_evaluator(tuple_module(dtype, ["is-finite"], 1, x.size, "pred"), [x])


@pytest.mark.hosts
@pytest.mark.parametrize("dtype", ["f32", "f64", "f16", "bf16"])
def test_float_binary(dtype):
    x, y = float_inputs(dtype), float_inputs(dtype)[::-1].copy()
    check_against_evaluator(tuple_module(dtype, FLOAT_BINARY, 2, x.size), [x, y], rtol=RTOL[dtype], atol=1e-30)


@pytest.mark.parametrize("dtype", ["s8", "s16", "s32", "s64", "u8", "u32", "u64"])
def test_integer_ops(dtype):
    x, y = int_inputs(dtype), int_inputs(dtype)[::-1].copy()
    y[10:20] = 0  # division and remainder by zero have XLA's defined results
    y[20:40] = rng.integers(0, 70, 20)  # shift counts in and just past the bit width
    unary = [op for op in INT_UNARY if not (dtype.startswith("u") and op == "abs")]
    check_against_evaluator(tuple_module(dtype, unary, 1, x.size), [x], rtol=0, atol=0)
    check_against_evaluator(tuple_module(dtype, INT_BINARY, 2, x.size), [x, y], rtol=0, atol=0)


def test_integer_power_small_exponents():
    x = np.array([2, -2, 3, -1, 1, 0, 7, -1, 1, 5], np.int32)
    y = np.array([10, 3, 0, 5, -3, 4, 2, -2, -7, -1], np.int32)
    check_against_evaluator(tuple_module("s32", ["power"], 2, x.size), [x, y], rtol=0, atol=0)


def test_pred_ops():
    x = rng.random(64) < 0.5
    y = rng.random(64) < 0.5
    check_against_evaluator(tuple_module("pred", PRED_BINARY, 2, 64), [x, y], rtol=0, atol=0)
    check_against_evaluator(tuple_module("pred", ["not"], 1, 64), [x], rtol=0, atol=0)


@pytest.mark.parametrize("dtype,kind", [
    ("f32", None), ("f64", None), ("bf16", None), ("s32", None), ("u8", None), ("pred", None),
    ("f32", "TOTALORDER"), ("f64", "TOTALORDER"), ("bf16", "TOTALORDER"), ("s32", "UNSIGNED"), ("u8", "SIGNED"),
])
def test_compare(dtype, kind):
    x = float_inputs(dtype) if dtype[0] in "fb" else (int_inputs(dtype) if dtype != "pred" else rng.random(256) < 0.5)
    y = x[::-1].copy()
    n = x.size
    attr = f", type={kind}" if kind else ""
    lines = [f"p0 = {dtype}[{n}] parameter(0)", f"p1 = {dtype}[{n}] parameter(1)"]
    lines += [f"c{d} = pred[{n}] compare(p0, p1), direction={d}{attr}" for d in DIRECTIONS]
    lines.append(f"t = ({', '.join(f'pred[{n}]' for _ in DIRECTIONS)}) tuple({', '.join(f'c{d}' for d in DIRECTIONS)})")
    check_against_evaluator(module("\n".join(lines)), [x, y], rtol=0, atol=0)


@pytest.mark.parametrize("dtype", ["f32", "s32", "bf16"])
def test_select_and_clamp(dtype):
    x = float_inputs(dtype) if dtype != "s32" else int_inputs(dtype)
    p = rng.random(x.size) < 0.5
    text = module(f"""
        p = pred[{x.size}] parameter(0)
        x = {dtype}[{x.size}] parameter(1)
        y = {dtype}[{x.size}] parameter(2)
        lo = {dtype}[] parameter(3)
        hi = {dtype}[] parameter(4)
        s = {dtype}[{x.size}] select(p, x, y)
        c = {dtype}[{x.size}] clamp(lo, x, hi)
        t = ({dtype}[{x.size}], {dtype}[{x.size}]) tuple(s, c)
    """)
    lo, hi = np.array(-2, NUMPY[dtype]), np.array(3, NUMPY[dtype])
    check_against_evaluator(text, [p, x, x[::-1].copy(), lo, hi], rtol=0, atol=0)


CONVERT_TYPES = ["pred", "s8", "s32", "s64", "u8", "u32", "f16", "bf16", "f32", "f64"]


@pytest.mark.hosts
@pytest.mark.parametrize("src", CONVERT_TYPES)
def test_convert_matrix(src):
    """convert from `src` to every type: truncation, saturation, NaN -> 0, rounding."""
    if src == "pred":
        x = rng.random(64) < 0.5
    elif src[0] in "fb":
        with np.errstate(all="ignore"):  # values beyond f16's range become inf, on purpose
            big = np.array([3e9, -3e9, 1e20, 255.5, 127.7, -128.9, 65504, 1e5], np.float64).astype(NUMPY[src])
        x = np.concatenate([float_inputs(src, 64), big])
    else:
        x = int_inputs(src, 64)
    n = x.size
    lines = [f"p = {src}[{n}] parameter(0)"]
    lines += [f"c{i} = {dst}[{n}] convert(p)" for i, dst in enumerate(CONVERT_TYPES)]
    lines.append(f"t = ({', '.join(f'{d}[{n}]' for d in CONVERT_TYPES)}) tuple({', '.join(f'c{i}' for i in range(len(CONVERT_TYPES)))})")
    check_against_evaluator(module("\n".join(lines)), [x], rtol=0, atol=0)


@pytest.mark.parametrize("src,dst", [("f32", "s32"), ("s32", "f32"), ("f64", "u64"), ("bf16", "s16"), ("f16", "u16")])
def test_bitcast_convert(src, dst):
    x = float_inputs(src, 64) if src[0] in "fb" else int_inputs(src, 64)
    check_against_evaluator(module(f"p = {src}[64] parameter(0)\nc = {dst}[64] bitcast-convert(p)"), [x], rtol=0, atol=0)


@pytest.mark.hosts
@pytest.mark.parametrize("dtype,e,m", [("f32", 8, 7), ("f32", 5, 10), ("f64", 8, 23), ("f32", 4, 3)])
def test_reduce_precision(dtype, e, m):
    x = float_inputs(dtype)
    text = module(f"p = {dtype}[{x.size}] parameter(0)\nr = {dtype}[{x.size}] reduce-precision(p), exponent_bits={e}, mantissa_bits={m}")
    check_against_evaluator(text, [x], rtol=0, atol=0)
