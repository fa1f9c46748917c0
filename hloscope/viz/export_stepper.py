"""The pass stepper of the HTML export: one step per pass run, graphs laid out up front.

Layout is the expensive part, so it is bounded three ways: only distinct modules are laid
out (a pass that changed nothing reuses the previous graph, and diff highlighting is done
in the browser by CSS classes, not by a second layout), each layout has a timeout, and the
whole export has a layout budget after which graphs are replaced by summaries. Layouts run
in parallel warm worker processes (hloscope.viz.layout).
"""

from __future__ import annotations

import html
import json
import time
from dataclasses import dataclass, field

from .diff import graph_diff, text_diff_html
from .graph import computation_of
from .graph_blocks import graph_spec
from .graph_view import svg_block
from .layout import render_many
from .scope_changes import ScopeChanges, scope_changes, scope_changes_html
from .cost_html import fusion_saving_html
from .records_html import decisions_html, doc_html, record_header_html, record_title
from .summary import computation_summary, summary_html


@dataclass
class GraphJob:
    """One graph to lay out: a module (and rejected-fusion edges) -> a `<template>`."""

    template_id: str
    module: object
    rejected: tuple = ()
    html: str = ""


@dataclass
class Stepper:
    steps_html: str = ""
    jobs: dict = field(default_factory=dict)  # (module key, rejected) -> GraphJob
    seconds: float = 0.0

    def templates_html(self) -> str:
        return "".join(f'<template id="{j.template_id}">{j.html}</template>' for j in self.jobs.values())

    def graph_for(self, key, module, rejected=()) -> GraphJob:
        """The job for (module, rejected edges), made on first request."""
        job = self.jobs.get((key, rejected))
        if job is None:
            job = self.jobs[(key, rejected)] = GraphJob(f"g{len(self.jobs)}", module, rejected)
        return job


class _ModuleKeys:
    """Stable keys for modules: the same object, or one structurally equal to the module
    just before it, gets the same key (so unchanged passes share a graph)."""

    def __init__(self):
        self.keys: dict[int, int] = {}
        self.last = None

    def __call__(self, module) -> int:
        key = self.keys.get(id(module))
        if key is None:
            if self.last is not None and _same(self.last, module):
                key = self.keys[id(self.last)]
            else:
                key = len(set(self.keys.values()))
            self.keys[id(module)] = key
        self.last = module
        return key


def _same(a, b) -> bool:
    from ..passes.pipeline import same_module

    return same_module(a, b)


def _rejections(record) -> tuple:
    return tuple((d.subject, d.target, d.reason) for d in record.log if not d.accepted and d.target)


def build_stepper(records, final_module, *, timeout: float, budget: float,
                  max_nodes: int) -> tuple[Stepper, GraphJob | None]:
    """Steps for `records` plus the final module's graph job (None without one); every graph laid out."""
    stepper, keys = Stepper(), _ModuleKeys()
    steps = []
    for i, record in enumerate(records):
        before = stepper.graph_for(keys(record.before), record.before)
        after_key = keys(record.after)
        rejected = _rejections(record) if record.changed else ()
        after = stepper.graph_for(after_key, record.after, rejected) if record.changed else before
        steps.append(_step_html(i, record, before.template_id, after.template_id))
    final = stepper.graph_for(keys(final_module), final_module) if final_module is not None else None
    start = time.perf_counter()
    _lay_out(list(stepper.jobs.values()), timeout, budget, max_nodes)
    stepper.seconds = time.perf_counter() - start
    stepper.steps_html = "".join(steps)
    return stepper, final


def _step_html(i: int, record, before_id: str, after_id: str) -> str:
    """A hidden step: data attributes for the JS, detail and diff as HTML to copy in."""
    added = removed = changed = ""
    diff = "<p class='hs-empty'>this pass changed nothing</p>"
    scopes = ScopeChanges()
    if record.changed:
        d = graph_diff(record.before, record.after)
        added, removed, changed = (" ".join(names) for names in (d.added, d.removed, d.changed))
        diff = text_diff_html(record.before.to_text(), record.after.to_text())
        scopes = scope_changes(record.before, record.after, d)
    detail = (
        record_header_html(record, title=False)
        + scope_changes_html(scopes)
        + doc_html(record.doc)
        + fusion_saving_html(record)
        + "<h4>Decisions</h4>"
        + decisions_html(record.log)
    )
    attrs = {
        "data-index": i,
        "data-changed": int(bool(record.changed)),
        "data-title": record_title(record),
        "data-before": before_id,
        "data-after": after_id,
        "data-added": added,
        "data-removed": removed,
        "data-changed-names": changed,
        "data-scopes": json.dumps(scopes.marks(), separators=(",", ":")) if scopes else "",
    }
    attr_text = " ".join(f'{k}="{html.escape(str(v))}"' for k, v in attrs.items())
    return f'<div class="step" {attr_text}><div class="s-detail">{detail}</div><div class="s-diff">{diff}</div></div>'


def _lay_out(jobs: list[GraphJob], timeout: float, budget: float, max_nodes: int) -> None:
    """Fill every job's html: an SVG, or a summary saying why there is none."""
    specs = {}
    for job in jobs:
        spec = graph_spec(job.module, rejected=job.rejected, id_prefix=job.template_id + "-", max_nodes=max_nodes)
        if spec.dot is None:
            job.html = _summary(job, spec.note)
        else:
            specs[job.template_id] = spec

    by_id = {j.template_id: j for j in jobs}
    results = render_many([spec.dot for spec in specs.values()], timeout, budget=budget)
    for (tid, spec), result in zip(specs.items(), results):
        job = by_id[tid]
        job.html = svg_block(result, spec.note) if result.ok else _summary(job, result.message)


def _summary(job: GraphJob, message: str) -> str:
    comp = computation_of(job.module, None)
    return summary_html(computation_summary(job.module, comp), message)
