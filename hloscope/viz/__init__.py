"""Views of the compiler's artifacts: pure functions that return text, HTML, DOT or SVG.

Nothing here imports IPython or ipywidgets, so every view can be tested (and exported)
without Jupyter; the notebook front end is built on top of these.

    module_to_dot(module)          the dataflow graph (fusions as clusters) as Graphviz DOT
    render_svg(dot)                DOT -> SVG by a warm worker process, with a timeout, cached
    LayoutService()                that service itself: workers, cache, background prefetch
    graph_html(module)             SVG, or a summary + HLO text when it cannot be drawn
    scoped_graph(module)           the graph grouped by the model's op_name scopes (closed ones as boxes)
    graph_diff(before, after)      added / removed / changed instructions
    text_diff_html(a, b)           a highlighted unified diff of two HLO texts
    memory_plan_html(plan)         buffer chart + table of a memory plan
    pass_record_html(record)       one pass run: explanation, decisions, diff
    save_html(path, module=...)    one self-contained HTML file of a whole compilation
    dump_record(folder, ...)       a deterministic text/JSON dump for diffs and CI
"""

from .diff import graph_diff, text_diff_html
from .dump import dump_record
from .export import export_html, save_html
from .graph import module_to_dot
from .graph_scopes import scoped_graph
from .graph_view import graph_html
from .hlo_html import highlight_hlo, hlo_block, module_html
from .layout import LayoutService, render_many, render_svg
from .memory_chart import memory_plan_html, memory_plan_svg, memory_plan_table_html
from .records_html import pass_record_html, records_table_html
from .render import RenderResult

__all__ = [
    "LayoutService",
    "RenderResult",
    "dump_record",
    "export_html",
    "graph_diff",
    "graph_html",
    "highlight_hlo",
    "hlo_block",
    "memory_plan_html",
    "memory_plan_svg",
    "memory_plan_table_html",
    "module_html",
    "module_to_dot",
    "pass_record_html",
    "records_table_html",
    "render_many",
    "render_svg",
    "save_html",
    "scoped_graph",
    "text_diff_html",
]
