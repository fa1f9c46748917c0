"""Programs for the tests that compile with real XLA through JAX (hloscope.xla.capture and
compare): a small MLP, and the GPT-2 block of the real-model corpus (tests/models/programs.py).
Import only after pytest.importorskip("jax")."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np

MODELS = Path(__file__).resolve().parent / "models"


def model_programs():
    """tests/models/programs.py, loaded by path (tests/models is not a package)."""
    spec = importlib.util.spec_from_file_location("model_programs", MODELS / "programs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def mlp(x, w1, b1, w2):
    import jax.numpy as jnp

    return jnp.tanh(x @ w1 + b1) @ w2


def mlp_args(seed: int = 0):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal((8, 16), dtype=np.float32), rng.standard_normal((16, 32), dtype=np.float32),
            rng.standard_normal(32, dtype=np.float32), rng.standard_normal((32, 4), dtype=np.float32))


def gpt2_block_forward():
    """(function, args) of the corpus's gpt2_block_forward, with its seed."""
    fn, args, _ = model_programs().gpt2_block_forward(np.random.default_rng(0))
    return fn, args


def corpus_program(name: str):
    """(function, args) of any program of tests/models/programs.py."""
    fn, args, _ = model_programs().PROGRAMS[name](np.random.default_rng(0))
    return fn, args
