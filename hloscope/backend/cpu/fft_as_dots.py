"""`fft` on the CPU as plain DFTs: each transformed axis is one matrix product with a DFT
matrix, on the real and imaginary parts (complex values are pairs of reals there, see
complex_as_pairs.py). O(n^2) per axis rather than O(n log n): what a teaching backend can
afford for the sizes it is shown, and exact to a few ulps times n.

    FFT / IFFT    over the last len(fft_length) axes: Y = X W, W[j,k] = exp(-+2 pi i jk / n) (/ n)
    RFFT          real -> complex: the last axis keeps n//2 + 1 outputs, then FFT on the others
    IRFFT         the inverse: IFFT on the leading axes, then the Hermitian sum on the last

One axis: move it last, flatten the rest to rows, [rows, n] x [n, m] (a GEMM), and back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ...ir.attributes import Literal
from ...ir.instruction import Instruction
from ...ir.shape import ArrayShape

if TYPE_CHECKING:  # the rewriter that calls this module owns the instruction list
    from .complex_as_pairs import _ComplexRewriter


def _matrix(r: _ComplexRewriter, name: str, value: np.ndarray, real: str) -> str:
    dtype = np.float32 if real == "f32" else np.float64
    r.out.append(Instruction(name, "constant", ArrayShape(real, value.shape), (), {},
                             literal=Literal(value.astype(dtype))))
    return name


def _dft(n: int, m: int, inverse: bool) -> tuple[np.ndarray, np.ndarray]:
    """Re and Im of W[j, k] = exp(-+2 pi i j k / n) for j < n, k < m (scaled by 1/n if inverse)."""
    jk = np.outer(np.arange(n), np.arange(m)).astype(np.float64)
    angle = (2 * np.pi / n) * (jk % n) * (1 if inverse else -1)
    scale = 1 / n if inverse else 1.0
    return np.cos(angle) * scale, np.sin(angle) * scale


def _hermitian(m: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """IRFFT's matrices: out[k] = sum_j w_j (Re X_j cos - Im X_j sin)(2 pi j k / n) / n."""
    jk = np.outer(np.arange(m), np.arange(n)).astype(np.float64)
    angle = (2 * np.pi / n) * (jk % n)
    weight = np.full((m, 1), 2.0)
    weight[0] = 1.0
    if n % 2 == 0 and m - 1 == n // 2:
        weight[m - 1] = 1.0
    return weight * np.cos(angle) / n, weight * np.sin(angle) / n


class _Axis:
    """One matrix product along `axis` of arrays of `dims`, as rows x n."""

    def __init__(self, r: _ComplexRewriter, tag: str, dims: tuple[int, ...], axis: int, m: int, real: str):
        self.r, self.tag, self.real = r, tag, real
        self.perm = tuple(d for d in range(len(dims)) if d != axis) + (axis,)
        self.inverse = tuple(int(i) for i in np.argsort(self.perm))
        self.moved = tuple(dims[d] for d in self.perm)
        self.rows = int(np.prod(self.moved[:-1], dtype=np.int64))
        self.out_moved = (*self.moved[:-1], m)
        self.m = m

    def rows_of(self, x: str, part: str) -> str:
        r, t = self.r, f"{self.tag}.{part}"
        moved = r.emit(f"{t}.t", "transpose", ArrayShape(self.real, self.moved), (x,), dimensions=self.perm)
        return r.emit(f"{t}.rows", "reshape", ArrayShape(self.real, (self.rows, self.moved[-1])), (moved,))

    def times(self, rows: str, matrix: str, part: str) -> str:
        return self.r.emit(f"{self.tag}.{part}", "dot", ArrayShape(self.real, (self.rows, self.m)), (rows, matrix),
                           lhs_contracting_dims=(1,), rhs_contracting_dims=(0,))

    def back(self, y: str, part: str) -> str:
        r, t = self.r, f"{self.tag}.{part}"
        shaped = r.emit(f"{t}.shaped", "reshape", ArrayShape(self.real, self.out_moved), (y,))
        dims = tuple(self.out_moved[i] for i in self.inverse)
        return r.emit(f"{t}.out", "transpose", ArrayShape(self.real, dims), (shaped,), dimensions=self.inverse)


def dft_axis(r: _ComplexRewriter, tag: str, xr: str, xi: str | None, dims: tuple[int, ...], axis: int,
             matrices: tuple[np.ndarray, np.ndarray], real: str, real_out: bool = False) -> tuple[str, str | None]:
    """(Re, Im) of X W along `axis` (X = xr + i xi; xi None for a real X); Im None if real_out."""
    wr, wi = matrices
    ax = _Axis(r, tag, dims, axis, wr.shape[1], real)
    mr, mi = _matrix(r, f"{tag}.wr", wr, real), _matrix(r, f"{tag}.wi", wi, real)
    ar = ax.rows_of(xr, "xr")
    ai = ax.rows_of(xi, "xi") if xi is not None else None
    rr, ri = ax.times(ar, mr, "rr"), ax.times(ar, mi, "ri")
    if ai is None:
        return ax.back(rr, "yr"), ax.back(ri, "yi")
    ir_, ii = ax.times(ai, mr, "ir"), ax.times(ai, mi, "ii")
    yr = r.emit(f"{tag}.yr", "subtract", ArrayShape(real, (ax.rows, ax.m)), (rr, ii))
    if real_out:
        return ax.back(yr, "yr"), None
    yi = r.emit(f"{tag}.yi", "add", ArrayShape(real, (ax.rows, ax.m)), (ri, ir_))
    return ax.back(yr, "yr"), ax.back(yi, "yi")


def lower_fft(r: _ComplexRewriter, inst: Instruction, real: str) -> tuple[str, str | None]:
    """The fft's (Re, Im) arrays of its result dims (Im None for IRFFT's real result)."""
    kind, lengths = inst.attr("fft_type"), tuple(inst.attr("fft_length"))
    x = inst.operands[0]
    src = r.shape_of(x).as_array()
    rank, k = src.rank, len(lengths)
    axes = list(range(rank - k, rank))
    if kind == "RFFT":
        dims = src.dims
        n = lengths[-1]
        xr, xi = dft_axis(r, f"{inst.name}.ax{rank - 1}", x, None, dims, rank - 1, _dft(n, n // 2 + 1, False), real)
        dims = (*dims[:-1], n // 2 + 1)
        for a in reversed(axes[:-1]):
            xr, xi = dft_axis(r, f"{inst.name}.ax{a}", xr, xi, dims, a, _dft(dims[a], dims[a], False), real)
        return xr, xi
    xr, xi = r.parts_flat(x, inst.name)
    dims = src.dims
    order = axes[:-1] if kind == "IRFFT" else axes
    for a in reversed(order):
        xr, xi = dft_axis(r, f"{inst.name}.ax{a}", xr, xi, dims, a, _dft(dims[a], dims[a], kind != "FFT"), real)
    if kind != "IRFFT":
        return xr, xi
    n, m = lengths[-1], dims[-1]
    assert xi is not None
    return dft_axis(r, f"{inst.name}.ax{rank - 1}", xr, xi, dims, rank - 1, _hermitian(m, n), real, real_out=True)
