"""Run in a child process by test_bad_arguments.py: call one entry point with bad arguments.

    python bad_arguments_child.py evaluate|jit|cpu

For each case it prints `OK <case>` when the call raised one of the expected, clear errors
(or, for inputs that may be accepted, returned the right values and left the inputs alone),
and `BAD <case>: ...` otherwise. A crash (a segfault in native code) kills the process
instead, which the parent sees as a non-zero return code and missing OK lines.
"""

from __future__ import annotations

import sys

import numpy as np

import hloscope

TEXT = """HloModule bad_arguments

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY main {
  x = f32[64,64] parameter(0)
  y = f32[64,64] parameter(1)
  d = f32[64,64] dot(x, y), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  e = f32[64,64] add(d, x)
  z = f32[] constant(0)
  r = f32[64] reduce(e, z), dimensions={1}, to_apply=add
  ROOT t = (f32[64,64], f32[64]) tuple(e, r)
}
"""
MODULE = hloscope.parse_hlo(TEXT)
X = np.linspace(-1, 1, 64 * 64, dtype=np.float32).reshape(64, 64)


def _readonly(a: np.ndarray) -> np.ndarray:
    a = a.copy()
    a.flags.writeable = False
    return a


def _misaligned(a: np.ndarray) -> np.ndarray:
    """A correct-looking array whose data starts one byte past an aligned address."""
    raw = np.zeros(a.nbytes + 1, np.uint8)
    out = np.frombuffer(raw.data, a.dtype, a.size, offset=1).reshape(a.shape)
    out[...] = a
    return out


def _strided(a: np.ndarray) -> np.ndarray:
    """The values of `a` in every other column of a wider buffer."""
    buffer = np.zeros((a.shape[0], 2 * a.shape[1]), a.dtype)
    buffer[:, ::2] = a
    return buffer[:, ::2]


# name -> (arguments, whether a returned value is acceptable: only for valid data in an
# unusual layout; everything else must be refused)
CASES = {
    "wrong shape": ((np.zeros((64, 32), np.float32), X), False),
    "transposed shape": ((np.zeros((32, 64), np.float32), X), False),
    "wrong rank": ((np.zeros(64 * 64, np.float32), X), False),
    "scalar": ((np.float32(1), X), False),
    "wrong dtype f64": ((X.astype(np.float64), X), False),
    "wrong dtype f16": ((X.astype(np.float16), X), False),
    "big-endian f32": ((X.astype(">f4"), X), False),
    "structured dtype": ((np.zeros((64, 64), [("a", np.float32)]), X), False),
    "object array": ((np.full((64, 64), None, object), X), False),
    "None": ((None, X), False),
    "string": (("x", X), False),
    "bytes": ((X.tobytes(), X), False),
    "nested list of the wrong shape": (([[1.0]], X), False),
    "huge python int": ((10**100, X), False),
    "too few arguments": ((X,), False),
    "too many arguments": ((X, X, X), False),
    "no arguments": ((), False),
    "empty array": ((np.zeros((0, 64), np.float32), X), False),
    "tuple for an array": (((X, X), X), False),
    "non-contiguous (transposed view)": ((np.ascontiguousarray(X.T).T, X), True),
    "non-contiguous (strided)": ((_strided(X), X), True),
    "negative strides": ((X[::-1, ::-1].copy()[::-1, ::-1], X), True),
    "zero strides (broadcast view)": ((np.broadcast_to(np.float32(0.5), (64, 64)), X), True),
    "read-only": ((_readonly(X), _readonly(X)), True),
    "aliasing: one array twice": ((X, X), True),
    "misaligned data": ((_misaligned(X), _misaligned(X)), True),
    "fortran order": ((np.asfortranarray(X), X), True),
}


def _entry(target: str):
    """(the function to call, the exception types that count as a clear refusal).

    For jit, arguments of another shape or dtype are not wrong: they are a new signature,
    traced again, so for it any case may also return a value."""
    if target == "evaluate":
        return (lambda *a: hloscope.evaluate(MODULE, *a)), (hloscope.HloscopeError,)
    if target == "jit":
        # jit refuses non-array arguments with TypeError (as JAX does) and out-of-range
        # Python ints with OverflowError; tracing the user's code raises what numpy would
        # raise for the same call (TypeError, ValueError), as JAX does.
        f = hloscope.jit(lambda x, y: ((x @ y) + x, ((x @ y) + x).sum(axis=1)))
        return f, (hloscope.HloscopeError, TypeError, ValueError, OverflowError)
    if target == "cpu":
        return hloscope.compile(MODULE, backend="cpu"), (hloscope.HloscopeError,)
    raise SystemExit(f"unknown target {target}")


def _check_value(name: str, got, args, copies) -> str | None:
    """None if `got` is right and the inputs are unchanged, else what is wrong."""
    want = hloscope.evaluate(MODULE, *[np.ascontiguousarray(a, np.float32) for a in args])
    for g, w in zip(got, want):
        if not np.allclose(g, w, rtol=1e-4, atol=1e-4):
            return "wrong values"
    if any(not np.array_equal(a, c) for a, c in zip(args, copies)):
        return "an input array was modified"
    return None


def main(target: str) -> None:
    run, refusals = _entry(target)
    for name, (args, may_accept) in CASES.items():
        copies = [np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in args]
        try:
            got = run(*args)
        except refusals as e:
            print(f"OK {name}" if str(e) else f"BAD {name}: an error without a message", flush=True)
            continue
        except Exception as e:  # noqa: BLE001 - reporting the unexpected is the point
            print(f"BAD {name}: {type(e).__name__}: {e}", flush=True)
            continue
        if not may_accept and target == "jit":
            print(f"OK {name} -- traced as a new signature", flush=True)
            continue
        problem = "accepted" if not may_accept else _check_value(name, got, args, copies)
        print(f"BAD {name}: {problem}" if problem else f"OK {name}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
