"""XLA itself, through jaxlib, on the same HLO text: the reference a run is timed against.

    runner, why = xla_runner(module)     # XLA:CPU compiling module.to_text(), or why not
    buffers = runner.put(args); runner.execute(buffers); runner.outputs(args)

jax is optional: without it `why` says how to install it. jaxlib's HLO entry points are
private and move between versions, so any failure becomes a message, never an error.
"""

from __future__ import annotations

import dataclasses
import sys
from typing import Any

import numpy as np

from ..ir.module import HloModule


def jax_wanted(compare: tuple[str, ...] | None) -> bool:
    """jax is compared when asked for, or by default when it is already imported (importing
    it costs over a second, too much for a default in an interactive cell)."""
    if compare is None:
        return "jax" in sys.modules
    return "jax" in compare


def numpy_wanted(compare: tuple[str, ...] | None) -> bool:
    return compare is None or "numpy" in compare


def without_donation(module: HloModule) -> HloModule:
    """`module` without input_output_alias / buffer_donor: XLA deletes a donated argument's
    buffer when it runs, and a timed run executes the same buffers many times."""
    kept = {k: v for k, v in module.attrs.items() if k not in ("input_output_alias", "buffer_donor")}
    return module if len(kept) == len(module.attrs) else dataclasses.replace(module, attrs=kept)


def xla_runner(module: HloModule) -> tuple[XlaRunner | None, str]:
    """(XlaRunner, "") for XLA:CPU compiling the same HLO text, or (None, why not)."""
    try:
        import jax  # optional, and slow to import: only when a comparison asks for it
        from jax._src import xla_bridge
        from jax._src.lib import xla_client  # pyright: ignore[reportPrivateImportUsage] - private, see above
    except ImportError:
        return None, "jax is not installed (pip install 'hloscope[jax]')"
    xc: Any = xla_client  # its hlo and _xla members are private too; failures are caught below
    try:
        hlo = xc.hlo.hlo_module_from_text(without_donation(module).to_text())
        mlir = xc._xla.mlir.hlo_to_stablehlo(hlo.as_serialized_hlo_module_proto())
        backend = xla_bridge.get_backend("cpu")
        exe = backend.compile_and_load(mlir, xc.DeviceList(tuple(backend.devices()[:1])), xc.CompileOptions())
    except Exception as e:  # noqa: BLE001 - jaxlib's private API moves between versions
        return None, f"XLA could not compile the module here: {type(e).__name__}: {str(e)[:200]}"
    return XlaRunner(jax, exe), ""


class XlaRunner:
    """An XLA executable: `put` the arguments on the device once, then `execute` them (what
    is timed, like hloscope's call), `outputs` to read the results back as numpy."""

    def __init__(self, jax: Any, exe: Any):
        self.jax, self.exe = jax, exe

    def put(self, args: list) -> list:
        return [self.jax.device_put(a) for a in args]

    def execute(self, buffers: list) -> list:
        outs = self.exe.execute_sharded(buffers).disassemble_into_single_device_arrays()
        for o in outs:
            o[0].block_until_ready()
        return outs

    def outputs(self, args: list) -> list[np.ndarray]:
        return [np.asarray(o[0]) for o in self.execute(self.put(args))]
