"""XLA as the judge: its parser (jaxlib's hlo_module_from_text) and its verifier (the module
compiled for the CPU through jaxlib, which runs HloVerifier first). Tests skip only these
comparisons when jax is not installed."""

from __future__ import annotations

import pytest


def _client():
    pytest.importorskip("jax", reason="jax (the optional 'jax' extra) is not installed")
    from jax._src.lib import xla_client
    return xla_client


def xla_parse(text: str):
    """XLA's parser on `text` (raises what it raises)."""
    return _client().hlo.hlo_module_from_text(text)  # pyright: ignore[reportPrivateImportUsage]


def xla_compile(text: str):
    """Parse, verify and compile `text` for one CPU device, as XLA does."""
    from jax._src import xla_bridge

    client = _client()
    proto = xla_parse(text).as_serialized_hlo_module_proto()
    mlir = client._xla.mlir.hlo_to_stablehlo(proto)  # pyright: ignore[reportPrivateImportUsage]
    backend = xla_bridge.get_backend("cpu")
    devices = client.DeviceList(tuple(backend.devices()[:1]))  # pyright: ignore[reportPrivateImportUsage]
    return backend.compile_and_load(mlir, devices, client.CompileOptions())  # pyright: ignore[reportPrivateImportUsage]


def xla_run(text: str, *args) -> list:
    """XLA's result of running `text` on one CPU device, as numpy arrays."""
    import jax
    import numpy as np

    with jax.enable_x64(True):  # (or device_put narrows f64 and s64 to 32 bits)
        buffers = [jax.device_put(np.asarray(a)) for a in args]
        return [np.asarray(r) for r in xla_compile(text).execute(buffers)]
