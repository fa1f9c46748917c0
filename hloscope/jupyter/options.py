"""The options of `%%hlo`, `hloscope.explore` and the `hloscope report` command.

    %%hlo f(x, w) --pipeline simplify --show overview,stepper --no-run
    %%hlo --args x,w --passes algsimp,dce,fusion --opt-level 2

The magic's line is a call (`f(x, w)`, for a Python cell) followed or preceded by options;
`split_line` separates the two and `parse_options` reads the options with argparse, turning
its usage errors into a short `OptionError` instead of a SystemExit.
"""

from __future__ import annotations

import argparse
import re
import shlex
from dataclasses import dataclass

from ..session import OptionError, SessionOptions

PANELS = ("overview", "stepper", "graph", "memory", "source", "ir", "run", "whatif")
OPTIONAL_PANELS = ("xla", "mesh")  # shown by default only where they apply: compared with XLA; for a mesh
_CALL = re.compile(r"(?:^|(?<=\s))[A-Za-z_][\w.]*\s*\(")


@dataclass
class ExploreOptions(SessionOptions):
    """What to compile (SessionOptions) and what to show: the panels, which notebook
    variables an HLO cell runs on, the name the record gets in the notebook, --debug."""

    show: tuple[str, ...] = PANELS
    args: tuple[str, ...] | None = None  # HLO cells: notebook variables to run on
    report_name: str = "hlo_report"
    debug: bool = False
    xla: bool = False  # %%hlo --xla: XLA compiles the cell too (hloscope.xla.compare); shows XLA's record
    jax: bool = False  # %%hlo --jax: the cell's function is JAX code, lowered by JAX to StableHLO

    @classmethod
    def from_kwargs(cls, **kwargs) -> "ExploreOptions":
        """Options given as keywords (hloscope.explore): names as above, lists or strings."""
        known = set(cls.__dataclass_fields__) | {"passes", "no_run"}
        unknown = sorted(set(kwargs) - known)
        if unknown:
            raise OptionError(f"unknown option(s) {unknown}; known: {sorted(known)}")
        if "passes" in kwargs:
            kwargs["pipeline"] = kwargs.pop("passes")
        if kwargs.pop("no_run", False):
            kwargs["run"] = False
        for key in ("show", "compare", "args"):
            if isinstance(kwargs.get(key), str):
                kwargs[key] = _csv(kwargs[key])
        options = cls(**kwargs)
        options.check()
        return options

    def check(self) -> None:
        bad = [p for p in self.show if p not in PANELS + OPTIONAL_PANELS]
        if bad:
            raise OptionError(f"--show: unknown panel(s) {bad}; panels: {', '.join(PANELS + OPTIONAL_PANELS)}")
        super().check()


def _csv(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


class _Parser(argparse.ArgumentParser):
    """argparse that raises OptionError instead of printing usage and exiting."""

    def error(self, message: str):
        raise OptionError(f"%%hlo: {message} (options: {OPTIONS_HELP})")


OPTIONS_HELP = (
    "--pipeline NAME|pass,pass  --passes pass,pass  --backend cpu|gpu  --show panel,panel  "
    "--opt-level 0-3  --no-run  --compare numpy,jax|none  --args x,w  --seed N  --name VAR  --xla  --jax  --debug"
)


def _parser() -> _Parser:
    p = _Parser(prog="%%hlo", add_help=False)
    p.add_argument("--pipeline", "--passes", dest="pipeline", default="default")
    p.add_argument("--backend", default="cpu", choices=("cpu", "gpu"))
    p.add_argument("--show", default=",".join(PANELS))
    p.add_argument("--opt-level", "-O", dest="opt_level", type=int, default=3)
    p.add_argument("--no-run", dest="run", action="store_false")
    p.add_argument("--compare", default=None)
    p.add_argument("--args", default=None)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--name", dest="report_name", default="hlo_report")
    p.add_argument("--xla", action="store_true")
    p.add_argument("--jax", action="store_true")
    p.add_argument("--debug", action="store_true")
    return p


def parse_options(tokens: list[str]) -> ExploreOptions:
    """ExploreOptions from the option tokens of a `%%hlo` line."""
    ns = _parser().parse_args(tokens)
    options = ExploreOptions(
        pipeline=ns.pipeline,
        backend=ns.backend,
        show=_csv(ns.show),
        opt_level=ns.opt_level,
        run=ns.run,
        compare=_csv(ns.compare) if ns.compare is not None else None,
        seed=ns.seed,
        args=_csv(ns.args) if ns.args is not None else None,
        report_name=ns.report_name,
        debug=ns.debug,
        xla=ns.xla,
        jax=ns.jax,
    )
    options.check()
    return options


def split_line(line: str) -> tuple[str | None, list[str]]:
    """(the call text or None, the option tokens) of a `%%hlo` line.

    The call is the first `name(` that starts a word, up to its matching `)`; it may hold
    spaces and commas (`f(f32[128, 256], w)`), so it is cut out before shlex splits the rest."""
    match = _CALL.search(line)
    if match is None:
        return None, _tokens(line)
    end = _matching_paren(line, match.end() - 1)
    call = line[match.start() : end + 1].strip()
    return call, _tokens(line[: match.start()] + " " + line[end + 1 :])


def _tokens(text: str) -> list[str]:
    try:
        return shlex.split(text)
    except ValueError as e:
        raise OptionError(f"%%hlo: cannot read the options: {e}") from None


def _matching_paren(text: str, open_index: int) -> int:
    depth = 0
    for i in range(open_index, len(text)):
        if text[i] in "([{":
            depth += 1
        elif text[i] in ")]}":
            depth -= 1
            if depth == 0:
                return i
    raise OptionError(f"%%hlo: unbalanced parentheses in {text[open_index - 20 if open_index > 20 else 0:].strip()!r}")
