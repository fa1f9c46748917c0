"""batch-norm-training/inference/grad, cholesky, triangular-solve, domain, add-dependency,
infeed, outfeed, rng-get-and-update-state: read, verified, printed as XLA accepts; evaluated
(where one device gives them a meaning) against numpy or JAX."""

import numpy as np
import pytest

import hloscope as hs
from hloscope.errors import HloVerifierError, NotSupportedError


def module(body: str) -> str:
    return f"HloModule m\nENTRY e {{\n  {body}\n}}\n"


BN_ARGS = "x = f32[2,3,4] parameter(0)\n  s = f32[4] parameter(1)\n  o = f32[4] parameter(2)\n  "
VALID = {
    "batch-norm-training": BN_ARGS + "ROOT b = (f32[2,3,4], f32[4], f32[4]) batch-norm-training(x, s, o), epsilon=0.001, feature_index=2",
    "batch-norm-inference": BN_ARGS + "m = f32[4] parameter(3)\n  v = f32[4] parameter(4)\n"
                            "  ROOT b = f32[2,3,4] batch-norm-inference(x, s, o, m, v), epsilon=0.001, feature_index=2",
    "batch-norm-grad": BN_ARGS + "v = f32[4] parameter(3)\n  g = f32[2,3,4] parameter(4)\n"
                       "  ROOT b = (f32[2,3,4], f32[4], f32[4]) batch-norm-grad(x, s, o, v, g), epsilon=0.001, feature_index=2",
    "cholesky": "a = f32[2,3,3] parameter(0)\n  ROOT c = f32[2,3,3] cholesky(a), lower=true",
    "triangular-solve": "a = f32[3,3] parameter(0)\n  b = f32[3,2] parameter(1)\n"
                        "  ROOT t = f32[3,2] triangular-solve(a, b), left_side=true, lower=true, unit_diagonal=false, "
                        "transpose_a=NO_TRANSPOSE",
    "domain": "a = f32[3] parameter(0)\n  ROOT d = f32[3] domain(a), domain={kind=\"sharding\", entry={maximal device=0}, exit={replicated}}",
    "add-dependency": "a = f32[3] parameter(0)\n  t = token[] after-all()\n  ROOT d = f32[3] add-dependency(a, t)",
    "infeed": "t = token[] after-all()\n  i = (f32[3], token[]) infeed(t), infeed_config=\"abc\"\n"
              "  ROOT g = f32[3] get-tuple-element(i), index=0",
    "outfeed": "a = f32[3] parameter(0)\n  t = token[] after-all()\n  ROOT o = token[] outfeed(a, t), outfeed_shape=f32[3]{0}",
    "rng-get-and-update-state": "ROOT r = u64[2] rng-get-and-update-state(), delta=4",
}


@pytest.mark.parametrize("name", list(VALID))
def test_reads_verifies_and_round_trips(name):
    m = hs.parse_hlo(module(VALID[name]))
    m.verify()
    text = m.to_text()
    assert hs.parse_hlo(text).to_text() == text


@pytest.mark.parametrize("body, message", [
    (BN_ARGS + "ROOT b = (f32[2,3,4], f32[4], f32[4]) batch-norm-training(x, s, o), epsilon=0.001, feature_index=3",
     "feature_index 3 is out of range"),
    ("x = f32[2,3,4] parameter(0)\n  s = f32[3] parameter(1)\n  o = f32[4] parameter(2)\n"
     "  ROOT b = (f32[2,3,4], f32[4], f32[4]) batch-norm-training(x, s, o), epsilon=0.001, feature_index=2",
     r"scale f32\[3\] must be f32\[4\]"),
    ("a = f32[3,4] parameter(0)\n  ROOT c = f32[3,4] cholesky(a)", "square matrices"),
    ("a = s32[3,3] parameter(0)\n  ROOT c = s32[3,3] cholesky(a)", "floating-point or complex"),
    ("a = f32[3,3] parameter(0)\n  b = f32[2,3] parameter(1)\n  ROOT t = f32[2,3] triangular-solve(a, b), left_side=true",
     "left_side=true: f32\\[2,3\\] must have 3 in dimension 0"),
    ("a = f32[3] parameter(0)\n  b = f32[3] parameter(1)\n  ROOT d = f32[3] add-dependency(a, b)", "must be a token"),
    ("ROOT r = u64[3] rng-get-and-update-state(), delta=4", r"gives u64\[2\]"),
])
def test_inconsistent_ones_are_rejected_for_their_defect(body, message):
    with pytest.raises(HloVerifierError, match=message):
        hs.parse_hlo(module(body)).verify()


def test_batch_norm_needs_epsilon_at_parse_time():
    with pytest.raises(hs.HloParseError, match="batch-norm-inference needs attribute epsilon") as e:
        hs.parse_hlo(module(BN_ARGS + "m = f32[4] parameter(3)\n  v = f32[4] parameter(4)\n"
                            "  ROOT b = f32[2,3,4] batch-norm-inference(x, s, o, m, v), feature_index=2"))
    assert (e.value.line, e.value.column) == (8, 23)


RNG = np.random.default_rng(0)
X = RNG.standard_normal((2, 3, 4)).astype(np.float32)
S = RNG.standard_normal(4).astype(np.float32)
O = RNG.standard_normal(4).astype(np.float32)


def _normalize(x, s, o, mean, var, eps=1e-3):
    return (x - mean) / np.sqrt(var + eps) * s + o


def test_batch_norm_training_and_inference_match_numpy():
    y, mean, var = hs.evaluate(hs.parse_hlo(module(VALID["batch-norm-training"])), X, S, O)
    np.testing.assert_allclose(mean, X.mean(axis=(0, 1)), rtol=1e-5)
    np.testing.assert_allclose(var, X.var(axis=(0, 1)), rtol=1e-5)
    np.testing.assert_allclose(y, _normalize(X, S, O, X.mean(axis=(0, 1)), X.var(axis=(0, 1))), rtol=1e-4, atol=1e-5)
    m, v = np.float32([0.1, 0.2, -0.3, 0]), np.float32([1, 2, 0.5, 4])
    y = hs.evaluate(hs.parse_hlo(module(VALID["batch-norm-inference"])), X, S, O, m, v)
    np.testing.assert_allclose(y, _normalize(X, S, O, m, v), rtol=1e-5, atol=1e-6)


@pytest.mark.jax
def test_batch_norm_grad_matches_jax_vjp_of_training():
    jax = pytest.importorskip("jax")
    jnp = jax.numpy

    def train(x, s, o):
        mean, var = x.mean(axis=(0, 1)), x.var(axis=(0, 1))
        return (x - mean) / jnp.sqrt(var + 1e-3) * s + o

    dy = RNG.standard_normal(X.shape).astype(np.float32)
    _, vjp = jax.vjp(train, X, S, O)
    want = vjp(dy)
    mean, var = X.mean(axis=(0, 1)), X.var(axis=(0, 1))
    got = hs.evaluate(hs.parse_hlo(module(VALID["batch-norm-grad"])), X, S, mean, var, dy)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, np.asarray(w), rtol=1e-4, atol=1e-4)


def _spd(n, batch=()):
    m = RNG.standard_normal((*batch, n, n))
    return (m @ np.swapaxes(m, -1, -2) + n * np.eye(n)).astype(np.float32)


@pytest.mark.parametrize("lower", [True, False])
def test_cholesky_reads_one_triangle_and_matches_numpy(lower):
    a = _spd(3, (2,))
    garbage = a + (np.triu(np.full((3, 3), 99.0), 1) if lower else np.tril(np.full((3, 3), 99.0), -1)).astype(np.float32)
    got = hs.evaluate(hs.parse_hlo(module(f"a = f32[2,3,3] parameter(0)\n  ROOT c = f32[2,3,3] cholesky(a), "
                                          f"lower={'true' if lower else 'false'}")), garbage)
    want = np.linalg.cholesky(a.astype(np.float64))
    np.testing.assert_allclose(got, want if lower else np.swapaxes(want, -1, -2), rtol=1e-5, atol=1e-5)


def test_cholesky_of_a_matrix_that_is_not_positive_definite_is_nan():
    got = hs.evaluate(hs.parse_hlo(module(VALID["cholesky"])), np.stack([_spd(3), -np.eye(3, dtype=np.float32)]))
    assert np.isfinite(got[0]).all() and np.isnan(got[1]).all()


@pytest.mark.parametrize("left, lower, transpose, unit", [
    (True, True, "NO_TRANSPOSE", False), (True, False, "TRANSPOSE", False),
    (False, True, "NO_TRANSPOSE", True), (False, False, "ADJOINT", False)])
def test_triangular_solve_matches_numpy(left, lower, transpose, unit):
    a = _spd(3) + np.float32(5) * (np.triu(np.ones((3, 3)), 1) - np.tril(np.ones((3, 3)), -1)).astype(np.float32)
    b = RNG.standard_normal((3, 2) if left else (2, 3)).astype(np.float32)
    flag = lambda v: "true" if v else "false"  # noqa: E731
    text = module(f"a = f32[3,3] parameter(0)\n  b = {'f32[3,2]' if left else 'f32[2,3]'} parameter(1)\n"
                  f"  ROOT t = {'f32[3,2]' if left else 'f32[2,3]'} triangular-solve(a, b), left_side={flag(left)}, "
                  f"lower={flag(lower)}, unit_diagonal={flag(unit)}, transpose_a={transpose}")
    got = hs.evaluate(hs.parse_hlo(text), a, b)
    t = (np.tril(a) if lower else np.triu(a)).astype(np.float64)
    if unit:
        np.fill_diagonal(t, 1)
    op = t if transpose == "NO_TRANSPOSE" else t.T
    residual = op @ got - b if left else got @ op - b
    np.testing.assert_allclose(residual, 0, atol=1e-4)


def test_domain_and_add_dependency_pass_their_value():
    x = np.float32([1, 2, 3])
    for name in ("domain", "add-dependency"):
        np.testing.assert_array_equal(hs.evaluate(hs.parse_hlo(module(VALID[name])), x), x)


@pytest.mark.parametrize("name", ["infeed", "rng-get-and-update-state"])
def test_host_and_state_ops_are_refused_by_name(name):
    with pytest.raises(NotSupportedError, match=f"not supported: {name}"):
        hs.evaluate(hs.parse_hlo(module(VALID[name])))


@pytest.mark.jax
@pytest.mark.parametrize("name", list(VALID))
def test_xla_reads_our_print_as_the_same_module(name):
    pytest.importorskip("jax", reason="jax (the optional 'jax' extra) is not installed")
    from jax._src.lib import xla_client

    ours = hs.parse_hlo(module(VALID[name]))
    theirs = hs.parse_hlo(xla_client.hlo.hlo_module_from_text(ours.to_text()).to_string())
    theirs.verify()
    assert sorted((i.opcode, str(i.shape)) for i in theirs.entry_computation.instructions) == sorted(
        (i.opcode, str(i.shape)) for i in ours.entry_computation.instructions)


ADD_GE = ("add {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = f32[] add(x, y)\n}\n"
          "ge {\n  x = f32[] parameter(0)\n  y = f32[] parameter(1)\n  ROOT s = pred[] compare(x, y), direction=GE\n}\n")


def test_scalar_window_ops_need_no_window_as_in_xla():
    """XLA reads reduce-window and select-and-scatter of scalars without `window=` (a rank-0 window)."""
    m = hs.parse_hlo(f"HloModule m\n{ADD_GE}ENTRY e {{\n  x = f32[] parameter(0)\n  i = f32[] constant(1)\n"
                     "  r = f32[] reduce-window(x, i), to_apply=add\n  s = f32[] select-and-scatter(x, x, i), select=ge, scatter=add\n"
                     "  ROOT t = (f32[], f32[]) tuple(r, s)\n}\n")
    m.verify()
    r, s = hs.evaluate(m, np.float32(2.5))
    assert float(r) == 3.5 and float(s) == 3.5
    bad = hs.parse_hlo(f"HloModule m\n{ADD_GE}ENTRY e {{\n  x = f32[3] parameter(0)\n  i = f32[] constant(1)\n"
                       "  ROOT r = f32[3] reduce-window(x, i), to_apply=add\n}\n")
    with pytest.raises(HloVerifierError, match="reduce-window window has 0 dimensions for f32"):
        bad.verify()
