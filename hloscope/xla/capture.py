"""Compile with XLA through JAX, asking for its per-pass dumps, and read them back.

    c = hloscope.xla.capture(f, x, w)          # the Compilation of XLA's own compile of f(x, w)
    c = hloscope.xla.capture(hlo_text)         # an HLO module (text or HloModule) compiled by XLA:CPU

A function is compiled with `jax.jit(f).lower(*args).compile(compiler_options=...)`: the dump
is asked for by that one compile's options, so nothing global changes and no other compile
writes into the folder. HLO text has no public compile entry point in jax 0.10.2: it goes
through jaxlib's private one (`xla_client.hlo.hlo_module_from_text`, converted to StableHLO,
then `compile_and_load` with the dump set in the compile options' DebugOptions), the route
hloscope.compilation.xla already uses to run XLA on HLO text; if jaxlib moves it, the error
says so. jax is imported only when a capture is asked for.
"""

from __future__ import annotations

import shutil
import tempfile
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..compilation.record import Compilation
from ..errors import HloscopeError
from ..ir.module import HloModule
from ..ir.parser import parse_hlo
from .dump_files import find_modules
from .dump_record import load

# Plus xla_dump_to: every pass's snapshot. Not xla_dump_emitter_re, which jaxlib 0.11 and
# later need to write a CPU kernel's LLVM IR (`*.ir-no-opt.ll`; 0.10 wrote it anyway): with it,
# jaxlib 0.12 crashes the process compiling most real models ("terminate called without an
# active exception"), and a capture must never take the user's kernel down.
DUMP_OPTIONS = {"xla_dump_hlo_pass_re": ".*"}


class XlaCaptureError(HloscopeError, RuntimeError):
    """jax missing, XLA refusing the program, or no dump where one was asked for."""


@dataclass
class Captured:
    """A capture and what compare needs besides the record: a callable that runs XLA's
    executable on the arguments (and waits for the result), and those arguments."""

    record: Compilation
    run: Callable[[], Any]
    args: tuple


def capture(target: Any, *args: Any, folder: str | Path | None = None, **jit_kwargs: Any) -> Compilation:
    """XLA's compilation of `target(*args)` (a function jax can jit; `jit_kwargs` go to
    jax.jit) or of HLO text / an HloModule (`args`: its inputs, if any), as the record
    every hloscope view reads. The dump goes to `folder`, or to a temporary folder removed
    when the record is freed."""
    return capture_run(target, *args, folder=folder, **jit_kwargs).record


def capture_run(target: Any, *args: Any, folder: str | Path | None = None, **jit_kwargs: Any) -> Captured:
    """`capture`, keeping XLA's executable so it can be run and timed (hloscope.xla.compare)."""
    jax = import_jax()
    root = Path(folder) if folder is not None else Path(tempfile.mkdtemp(prefix="hloscope-xla-"))
    root.mkdir(parents=True, exist_ok=True)
    known = _module_ids(root)
    if isinstance(target, (str, HloModule)):
        module = parse_hlo(target) if isinstance(target, str) else target
        run, name = _compile_hlo(jax, module, root, list(args)), module.name
    elif callable(target):
        run, name = _compile_function(jax, target, args, root, jit_kwargs), _jit_name(target)
    else:
        raise TypeError(f"capture: expected a function, HLO text or an HloModule, not {type(target).__name__}")
    record = load(root, _new_module(root, known, name))
    if folder is None:
        weakref.finalize(record, shutil.rmtree, str(root), True)  # the dump lives as long as its record
    return Captured(record, run, args)


def import_jax() -> Any:
    """jax, or an error saying how to install it."""
    try:
        import jax  # optional: only a capture needs it
    except ImportError:
        raise XlaCaptureError("hloscope.xla.capture compiles with XLA through JAX, which is not installed: "
                              "pip install 'hloscope[jax]'") from None
    return jax


def _compile_function(jax: Any, fn: Callable, args: tuple, root: Path, jit_kwargs: dict) -> Callable[[], Any]:
    options = {"xla_dump_to": str(root), **DUMP_OPTIONS}
    try:
        compiled = jax.jit(fn, **jit_kwargs).lower(*args).compile(compiler_options=options)
    except Exception as e:  # noqa: BLE001 - jax's errors are many; the message is what matters
        raise XlaCaptureError(f"XLA (through jax) could not compile {_jit_name(fn)}: {type(e).__name__}: {e}") from e
    # Once: a timed call then measures XLA's run, not the copy in. A compiled function takes
    # only the arguments that are not static.
    on_device = jax.device_put(dynamic_args(args, jit_kwargs.get("static_argnums", ())))
    return lambda: jax.block_until_ready(compiled(*on_device))


def dynamic_args(args: tuple, static: int | tuple[int, ...] = ()) -> tuple:
    """`args` without those at the positions jax.jit's static_argnums names."""
    positions = (static,) if isinstance(static, int) else tuple(static)
    fixed = {i % len(args) for i in positions} if args else set()
    return tuple(a for i, a in enumerate(args) if i not in fixed)


def _compile_hlo(jax: Any, module: HloModule, root: Path, inputs: list) -> Callable[[], Any]:
    """XLA:CPU compiling HLO text (jaxlib's private entry points: see the module docstring);
    returns a runner on `inputs` (none given: seeded random ones)."""
    from ..compilation.inputs import parameter_inputs
    from ..compilation.xla import XlaRunner

    try:
        from jax._src import xla_bridge
        from jax._src.lib import xla_client  # pyright: ignore[reportPrivateImportUsage] - private, see above

        xc: Any = xla_client
        hlo = xc.hlo.hlo_module_from_text(module.to_text())
        mlir = xc._xla.mlir.hlo_to_stablehlo(hlo.as_serialized_hlo_module_proto())
        options = xc.CompileOptions()
        debug = options.executable_build_options.debug_options
        debug.xla_dump_to, debug.xla_dump_hlo_pass_re = str(root), DUMP_OPTIONS["xla_dump_hlo_pass_re"]
        backend = xla_bridge.get_backend("cpu")
        exe = backend.compile_and_load(mlir, xc.DeviceList(tuple(backend.devices()[:1])), options)
    except Exception as e:  # noqa: BLE001 - jaxlib's private API moves between versions
        raise XlaCaptureError(f"XLA could not compile HLO module {module.name} through jaxlib's HLO entry point "
                              f"(private in jax {getattr(jax, '__version__', '?')}): {type(e).__name__}: {e}") from e
    runner = XlaRunner(jax, exe)
    values = inputs or parameter_inputs(module)
    if "input_output_alias" in module.attrs or "buffer_donor" in module.attrs:
        return lambda: runner.execute(runner.put(values))  # a donated buffer is gone after one run
    buffers = runner.put(values)
    return lambda: runner.execute(buffers)


def _jit_name(fn: Callable) -> str:
    """The module name jax gives `jax.jit(fn)`: jit_<the function's name>."""
    return "jit_" + getattr(fn, "__name__", "fn")


def _module_ids(root: Path) -> set[str]:
    try:
        return set(find_modules(root))
    except HloscopeError:  # an empty (new) folder
        return set()


def _new_module(root: Path, known: set[str], name: str) -> str:
    """The id of the module this compile dumped: a new one, named `name` if one is (jax
    sanitizes names: else the new one with the most snapshots)."""
    modules = find_modules(root)
    new = [m for i, m in modules.items() if i not in known] or list(modules.values())
    if not new:
        raise XlaCaptureError(f"{root}: XLA wrote no module dump there")
    named = [m for m in new if m.name == name] or new
    return max(named, key=lambda m: (len(m.snapshots), m.id)).id
