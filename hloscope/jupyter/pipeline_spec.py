"""`--pipeline` / `--passes`: a pipeline name, or pass names separated by commas.

    default                   hloscope.pipelines["default"]
    algsimp,dce,fusion        those passes in that order (each run once)

Pass names are the `name`s the passes carry (XLA's spelling: `algsimp`, `dce`, `cse`,
`fusion`, `hlo-memory-scheduler`, ...); `-` and `_` are interchangeable.
"""

from __future__ import annotations

from ..errors import HloscopeError


class PipelineSpecError(HloscopeError, ValueError):
    """A pipeline or pass name that does not exist."""


def known_passes() -> dict:
    """{pass name: pass class} for every pass in the named pipelines."""
    from ..passes.pipeline import Pipeline
    from ..passes.pipelines import pipelines

    found: dict = {}

    def walk(p):
        for step in p.passes:
            if isinstance(step, Pipeline):
                walk(step)
            else:
                found.setdefault(step.name, type(step))

    for name in pipelines:
        walk(pipelines[name])
    return found


def _norm(name: str) -> str:
    return name.strip().replace("_", "-").lower()


def pipeline_from_spec(spec):
    """A Pipeline from a Pipeline, a pipeline name or comma-separated pass names."""
    from ..passes.pipeline import Pipeline
    from ..passes.pipelines import pipelines

    if isinstance(spec, Pipeline):
        return spec
    if spec in pipelines:
        return pipelines[spec]
    names = [n for n in str(spec).split(",") if n.strip()]
    passes = {_norm(k): v for k, v in known_passes().items()}
    missing = [n.strip() for n in names if _norm(n) not in passes]
    if missing or not names:
        raise PipelineSpecError(
            f"--pipeline {spec!r}: {'unknown pass(es) ' + ', '.join(missing) if missing else 'empty'}; "
            f"pipelines: {', '.join(pipelines)}; passes: {', '.join(sorted(known_passes()))}"
        )
    return Pipeline("custom", [passes[_norm(n)]() for n in names])
