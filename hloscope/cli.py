"""The `hloscope` command: a compilation as one HTML page, or as a text/JSON dump.

    hloscope report model.hlo -o report.html                  an HLO module, random inputs
    hloscope report model.hlo --inputs model.npz -o r.html    inputs arg0, arg1, ... from an .npz
    hloscope report model.py:mlp --shapes "f32[128,256],f32[256,64]" -o report.html
    hloscope report jit_f.mlir -o report.html                 StableHLO (as JAX prints it), legalized to HLO
    hloscope dump model.hlo -o dump/                          XLA-style dump folder (hloscope.viz.dump)
    hloscope report xla_dump_dir/ -o xla.html                 XLA's own --xla_dump_to folder (hloscope.xla)

Options shared with %%hlo: --pipeline (a pipeline name or comma-separated pass names),
--backend, --opt-level, --no-run, --compare, --seed. Bad input (a parse error, a shape
error) is a short message on stderr and exit status 2; a stage that failed after that
(the backend, the run) still writes the report, says so, and exits with status 1.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import sys
from pathlib import Path
from typing import Any, Callable

import numpy as np

from . import session
from .compilation.inputs import shape_input
from .compilation.record import Compilation
from .errors import HloscopeError
from .session import OptionError, SessionOptions
from .xla import load as load_xla_dump

SHAPES = re.compile(r"[a-z]+\d*\[[\d,\s]*\]")


class CliError(Exception):
    """Bad input: shown as one message, exit status 2."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="hloscope", description="Compile with hloscope and save what it did.")
    sub = p.add_subparsers(dest="command", required=True)
    report = sub.add_parser("report", help="one self-contained HTML page with every panel")
    dump = sub.add_parser("dump", help="a deterministic text/JSON dump folder")
    for s, out_help in ((report, "the HTML file to write"), (dump, "the folder to write")):
        s.add_argument("source", help="FILE.hlo (HLO text), FILE.mlir (StableHLO or MHLO), FILE.py:FUNCTION (numpy-style or JAX), or an XLA dump folder (--xla_dump_to)")
        s.add_argument("-o", "--output", required=True, help=out_help)
        s.add_argument("--shapes", help='argument shapes of FUNCTION, e.g. "f32[128,256],f32[256,64]"')
        s.add_argument("--inputs", help="an .npz with arrays arg0, arg1, ... (instead of random inputs)")
        s.add_argument("--pipeline", "--passes", dest="pipeline", default="default",
                       help="a pipeline name (default, simplify, none) or comma-separated pass names")
        s.add_argument("--backend", default="cpu", choices=("cpu", "gpu"))
        s.add_argument("--opt-level", "-O", dest="opt_level", type=int, default=3)
        s.add_argument("--no-run", dest="run", action="store_false", help="compile only")
        s.add_argument("--compare", default=None, help="numpy,jax or none (default: numpy)")
        s.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
        s.add_argument("--title", default=None)
        s.add_argument("--module", default=None, help="of an XLA dump folder: the module's id or name "
                                                      "(default: the one with the most pass snapshots)")
    dump.add_argument("--timings", action="store_true", help="also write timings.json (not deterministic)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if Path(args.source).is_dir():  # XLA's own dump: read, nothing to compile or run
            report = _xla_record(args)
        else:
            report = _build(args)
            _run(report)
    except CliError as e:
        print(f"hloscope: {e}", file=sys.stderr)
        return 2
    if args.command == "report":
        path = report.save_html(args.output)
        print(f"wrote {path}")
    else:
        files = report.dump(args.output, timings=args.timings)
        print(f"wrote {len(files)} files to {args.output}")
    print(report.summary())
    for stage in report.failed:
        print(f"hloscope: stage {stage.name} failed: {stage.note}", file=sys.stderr)
    return 1 if report.failed else 0


def _build(args: argparse.Namespace) -> Compilation:
    try:
        compare = tuple(c for c in args.compare.split(",") if c) if args.compare is not None else ("numpy",)
        options = SessionOptions(pipeline=args.pipeline, backend=args.backend, opt_level=args.opt_level,
                                 run=args.run, compare=compare, seed=args.seed)
        options.check()
    except OptionError as e:
        raise CliError(str(e)) from None
    inputs = _npz_inputs(args.inputs) if args.inputs else None
    try:
        if ":" in args.source and args.source.split(":")[0].endswith(".py"):
            fn, name = _load_function(args.source)
            call_args = inputs if inputs is not None else _shape_inputs(args.shapes, args.seed, name)
            return session.new(fn, *call_args, options=options, title=args.title or f"hloscope: {name}")
        path = Path(args.source)
        if not path.is_file():
            raise CliError(f"no such file: {path}")
        return session.new(path.read_text(), inputs=inputs, options=options, title=args.title or f"hloscope: {path.name}")
    except HloscopeError as e:  # a pipeline that names an unknown pass, say
        raise CliError(f"{type(e).__name__}: {e}") from None


def _xla_record(args: argparse.Namespace) -> Compilation:
    try:
        report = load_xla_dump(args.source, module=args.module)
    except HloscopeError as e:
        raise CliError(f"{type(e).__name__}: {e}") from None
    if args.title:
        report.title = args.title
    return report


def _run(report: Compilation) -> None:
    """All stages; a failure of the first (bad input) becomes a CliError."""
    try:
        session.run(report, limit=1, strict=True)
    except Exception as e:  # noqa: BLE001 - bad input: one message, no traceback
        raise CliError(f"{type(e).__name__}: {e}") from None
    session.run(report)


def _load_function(source: str) -> tuple[Callable, str]:
    file, _, name = source.rpartition(":")
    path = Path(file)
    if not path.is_file():
        raise CliError(f"no such file: {path}")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:  # importlib finds no loader for this suffix
        raise CliError(f"cannot import {path}: not a Python source file")
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.resolve().parent))
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # noqa: BLE001 - the user's file failed to import
        raise CliError(f"importing {path} failed: {type(e).__name__}: {e}") from None
    finally:
        sys.path.pop(0)
    fn = getattr(module, name, None)
    if not callable(fn):
        raise CliError(f"{path} has no function {name!r}")
    return fn, name


def _shape_inputs(shapes: str | None, seed: int, name: str) -> list[np.ndarray]:
    if not shapes:
        raise CliError(f'say the argument shapes of {name}: --shapes "f32[128,256],f32[256,64]" '
                       "(or --inputs FILE.npz)")
    found = SHAPES.findall(shapes)
    if not found or ",".join(found).replace(" ", "") != shapes.replace(" ", "").strip(","):
        raise CliError(f"--shapes {shapes!r}: expected HLO shapes separated by commas, e.g. f32[128,256],s32[]")
    rng = np.random.default_rng(seed)
    try:
        return [shape_input(s, rng) for s in found]
    except Exception as e:  # noqa: BLE001 - an unknown element type
        raise CliError(f"--shapes: {e}") from None


def _npz_inputs(path: str) -> list[Any]:
    try:
        data = np.load(path)
    except (OSError, ValueError) as e:
        raise CliError(f"--inputs {path}: {e}") from None
    names = sorted((k for k in data.files if re.fullmatch(r"arg\d+", k)), key=lambda k: int(k[3:]))
    if not names:
        raise CliError(f"--inputs {path}: no arrays named arg0, arg1, ...")
    return [data[k] for k in names]


if __name__ == "__main__":
    sys.exit(main())
