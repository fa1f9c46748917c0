"""Lazy tensors record numpy calls, know their shapes at once, run on reads, and fail clearly."""

from __future__ import annotations

import numpy as np
import pytest

import hloscope.lazy as lz
from hloscope.errors import UnsupportedError
from hloscope.lazy import step


def test_operations_are_recorded_until_mark_step():
    a = lz.tensor(np.arange(6, dtype=np.float32).reshape(2, 3))
    b = np.exp(a) * 2.0 + a[:, 1:].sum()
    assert b.pending and b.shape == (2, 3) and b.dtype == np.float32
    assert lz.metrics()["executions"] == 0
    lz.mark_step()
    assert not b.pending and lz.metrics()["executions"] == 1
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_allclose(b.numpy(), np.exp(x) * 2.0 + x[:, 1:].sum(), rtol=1e-6)


def test_integer_tensors():
    a = lz.tensor(np.array([[7, -3, 12], [5, 0, 9]], np.int32))
    b = (a * 3 + 1) // 2 - a % 4
    total = b.sum(axis=0)
    biggest = np.argmax(a, axis=1)
    assert b.dtype == np.int32 and total.shape == (3,)
    x = np.array([[7, -3, 12], [5, 0, 9]], np.int32)
    expected = (x * 3 + 1) // 2 - x % 4
    np.testing.assert_array_equal(b.numpy(), expected)
    np.testing.assert_array_equal(total.numpy(), expected.sum(axis=0))
    np.testing.assert_array_equal(biggest.numpy(), np.argmax(x, axis=1))
    assert int(total[2]) == int(expected.sum(axis=0)[2])


def test_reads_run_the_pending_graph_and_count_as_implicit_syncs():
    a = lz.tensor(np.array([1.5, -2.0], np.float32))
    s = np.sum(a * a)
    assert float(s) == pytest.approx(6.25)  # SYNC-A
    m = lz.metrics()
    assert m["implicit_syncs"] == 1 and m["executions"] == 1
    (where,) = m["sync_lines"]
    assert where.startswith("test_lazy_tensor.py:") and "float(s)" in where
    t = a * 2.0
    if t[0] > 0:  # bool() of a pending tensor: another sync
        pass
    assert lz.metrics()["implicit_syncs"] == 2
    assert (a[1] + 1.0).item() == pytest.approx(-1.0) and lz.metrics()["implicit_syncs"] == 3
    u = a - 1.0
    assert "0.5" in repr(u) and lz.metrics()["implicit_syncs"] == 4
    assert s.item() == pytest.approx(6.25) and lz.metrics()["implicit_syncs"] == 4  # already data: no sync


def test_the_users_array_is_copied_in_and_numpy_returns_a_copy():
    x = np.ones(4, np.float32)
    w = lz.tensor(x, requires_grad=True)
    with lz.no_grad():
        w -= 0.5
    lz.mark_step()
    np.testing.assert_array_equal(x, np.ones(4, np.float32))
    out = w.numpy()
    out[:] = 9.0
    np.testing.assert_array_equal(w.numpy(), np.full(4, 0.5, np.float32))


def test_an_unsupported_numpy_function_names_itself_and_the_users_line():
    a = lz.tensor(np.ones((3, 3), np.float32))
    with pytest.raises(UnsupportedError) as e:
        np.linalg.svd(a)  # UNSUPPORTED-LINE
    text = str(e.value)
    assert "svd" in text and "lazy tensor" in text
    assert "test_lazy_tensor.py" in text and "np.linalg.svd(a)  # UNSUPPORTED-LINE" in text


def test_mismatched_shapes_fail_at_the_users_line_when_recorded():
    a = lz.tensor(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError) as e:
        a @ a  # SHAPE-LINE
    assert "SHAPE-LINE" in str(e.value)


def test_reading_after_a_failed_compile_keeps_every_value(monkeypatch):
    x = np.arange(4, dtype=np.float32)
    w = lz.tensor(x, requires_grad=True)
    with lz.no_grad():
        w *= 3.0
    keep = lz.tensor(np.full(2, 7.0, np.float32))

    def broken(*args, **kwargs):
        raise RuntimeError("the compiler fell over")

    monkeypatch.setattr(step, "compile_traced", broken)
    with pytest.raises(RuntimeError, match="fell over"):
        lz.mark_step()
    assert w.pending  # the update is still pending, not lost
    np.testing.assert_array_equal(keep.numpy(), np.full(2, 7.0, np.float32))  # data needs no compile
    np.testing.assert_array_equal(x, np.arange(4, dtype=np.float32))
    monkeypatch.undo()
    lz.mark_step()
    np.testing.assert_array_equal(w.numpy(), 3.0 * x)


def test_tensors_nobody_holds_are_not_computed():
    a = lz.tensor(np.ones(3, np.float32))
    np.sin(a)  # dropped at once
    kept = np.cos(a)
    record = lz.mark_step()
    assert record is not None and record.outputs == 1
    assert [line.op for line in record.listing] == ["data", "cos"]
    np.testing.assert_allclose(kept.numpy(), np.cos(np.ones(3)), rtol=1e-6)


def test_python_numbers_of_different_types_are_different_graphs():
    a = lz.tensor(np.arange(3, dtype=np.int32))
    as_int, as_float = a ** 2, a ** 2.0  # equal as dict keys, not as programs
    assert (as_int.dtype, as_float.dtype) == (np.int32, np.float64)
    lz.mark_step()
    assert as_int.numpy().dtype == np.int32 and as_float.numpy().dtype == np.float64
    np.testing.assert_array_equal(as_float.numpy(), [0.0, 1.0, 4.0])


X = np.arange(12, dtype=np.float32).reshape(3, 4) - 5

CALLS = {  # each is called on X as a lazy tensor, and on X itself for the reference
    "concatenate a list": lambda x: np.concatenate([x, x * 2], axis=0),
    "where": lambda x: np.where(x > 0, x, 0.0),
    "transpose and matmul": lambda x: x.T @ x,
    "split (several results)": lambda x: np.split(x, 2, axis=1)[1],
    "divmod (a ufunc with two results)": lambda x: np.divmod(x, 3.0)[1],
    "reshape and sum": lambda x: x.reshape(4, 3).sum(axis=1),
    "a numpy array mixed in": lambda x: x + np.ones(4, np.float32),
    "astype and floor_divide": lambda x: x.astype(np.int32) // 3,
    "softmax": lambda x: np.exp(x) / np.exp(x).sum(axis=1, keepdims=True),
}


@pytest.mark.parametrize("name", list(CALLS))
def test_numpy_calls_on_lazy_tensors_match_numpy(name):
    ours = CALLS[name](lz.tensor(X))
    lz.mark_step()
    reference = CALLS[name](X)
    assert ours.shape == reference.shape and ours.dtype == reference.dtype
    np.testing.assert_allclose(ours.numpy(), reference, rtol=1e-5)


def test_indexing_with_a_lazy_integer_tensor():
    a = lz.tensor(X)
    rows = a[lz.tensor(np.array([2, 0], np.int32))]
    np.testing.assert_array_equal(rows.numpy(), X[[2, 0]])


def test_what_a_lazy_tensor_refuses_it_says_plainly():
    a = lz.tensor(np.ones(3, np.float32))
    with pytest.raises(UnsupportedError, match="assigning into a lazy tensor"):
        a[0] = 2.0
    with pytest.raises(UnsupportedError, match="out= on a lazy tensor"):
        np.add(a, a, out=a)
    i = lz.tensor(np.arange(3, dtype=np.int32))
    with pytest.raises(TypeError, match="cannot write a float64 result into a int32 tensor"):
        i += 0.5
    with pytest.raises(ValueError, match="does not match the tensor's"):
        a += np.ones((2, 3), np.float32)
    assert lz.metrics()["executions"] == 0  # nothing ran, nothing is left half-done
