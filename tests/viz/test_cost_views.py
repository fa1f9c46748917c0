"""The cost model's views: stream timeline, graph overlay, fusion savings, estimate vs measured,
and the IR tab's SASS and thunks views."""

import pytest

from hloscope import session
from hloscope.compiler import compile as compile_module
from hloscope.cost import GPUS
from hloscope.ir.parser import parse_hlo
from hloscope.session import SessionOptions
from hloscope.viz.cost_html import estimate_vs_measured_html, fusion_saving_text, kernel_estimates_html
from hloscope.viz.cost_overlay import hottest, overlay_css, overlay_values
from hloscope.viz.cost_view import estimate_vs_measured, kernel_estimates, measured_vs_estimated
from hloscope.viz.ir_text import available_views, view_html
from hloscope.viz.stream_timeline import schedule, timeline_svg

TWO_DOTS = """HloModule two_dots
ENTRY main {
  a = f32[64,128] parameter(0)
  b = f32[128,32] parameter(1)
  c = f32[64,128] parameter(2)
  x = f32[64,32] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  y = f32[64,32] dot(c, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ROOT s = f32[64,32] add(x, y)
}
"""

CHAIN = """HloModule chain
ENTRY main {
  x = f32[65536] parameter(0)
  y = f32[65536] parameter(1)
  s = f32[65536] add(x, y)
  ROOT e = f32[65536] exponential(s)
}
"""


@pytest.fixture(scope="module")
def gpu():
    return compile_module(TWO_DOTS, backend="gpu", ptxas=False).report


def test_timeline_runs_the_two_dots_side_by_side(gpu):
    seconds = {k.name: k.estimates["H200"] for k in kernel_estimates(gpu, cpu=False)}
    bars = {b.thunk.instruction: b for b in schedule(gpu.thunks, seconds, GPUS["H200"].bandwidth)}
    x, y, s = bars["x"], bars["y"], bars["s"]
    assert x.start == y.start == 0.0 and x.thunk.stream != y.thunk.stream  # overlapping in time
    assert s.start == pytest.approx(max(x.end, y.end))  # the join
    svg = timeline_svg(gpu.thunks, seconds, GPUS["H200"].bandwidth)
    assert svg.startswith("<svg") and "stream 1" in svg and 'data-instruction="s"' in svg


def test_overlay_colours_by_bytes_and_names_the_hottest():
    module = parse_hlo(TWO_DOTS)
    values = overlay_values(module, "bytes")
    assert set(values) == {"x", "y", "s"}  # parameters move nothing
    assert values["x"] == (64 * 128 + 128 * 32 + 64 * 32) * 4
    assert hottest(values, "bytes") == "hottest by bytes: x (57.3 kB), y (57.3 kB), s (24.6 kB)"  # ties: in order
    css = overlay_css(values)
    assert 'g[data-instruction="s"] > polygon' in css and "#ff3723" in css  # the largest is the reddest
    flops = overlay_values(module, "flops")
    assert flops["x"] == 2 * 64 * 32 * 128 and hottest(flops, "flops").startswith("hottest by flops: ")
    with pytest.raises(ValueError, match="bytes"):
        overlay_values(module, "watts")


def test_fusion_pass_saving_in_words():
    report = compile_module(CHAIN).report
    fused = [r for r in report.records if r.changed and "fusion" in r.name]
    assert fused
    text = fusion_saving_text(fused[0])
    n = 65536 * 4
    saved = (3 * n + 2 * n) - 3 * n  # add (2 reads, 1 write) + exp (1, 1) -> fusion (2 reads, 1 write)
    assert text.startswith(f"fusing saves {saved / 1e6:.3g} MB of traffic, about ")
    assert "on H200" in text.splitlines()[0]
    assert f"fused s into e: saves {2 * n / 1e6:.3g} MB of traffic, about " in text  # the decision's own line


def test_cpu_estimate_sits_next_to_the_measured_time():
    report = session.new(CHAIN, options=SessionOptions(compare=()))
    session.run(report, strict=True)
    est, measured = estimate_vs_measured(report)
    assert est > 0 and measured == report.timing("hloscope").seconds
    assert f"{measured / est:.2f}x" in estimate_vs_measured_html(report)
    assert "CPU (est.)" in kernel_estimates_html(report)


def test_ir_tab_offers_sass_and_the_thunks(gpu):
    views = available_views(gpu)
    assert "thunks & streams (GPU)" in views
    assert "<svg" in view_html(gpu, "thunks & streams (GPU)", None)
    report = compile_module(TWO_DOTS, backend="gpu").report  # with ptxas, when it is there
    if report.assembler is not None and report.assembler.available:
        assert "SASS" in available_views(report)
        text = view_html(report, "SASS", report.kernels[0].name)
        assert report.kernels[0].name in text or "no SASS" in text


def test_measured_gpu_times_sit_next_to_the_estimates(gpu):
    # the profile a GPU run gives (exe.profile: [(kernel, ms per launch)]), here made up
    names = [k.name for k in gpu.kernels]
    est = {k.name: k.estimates["H200"] for k in kernel_estimates(gpu, cpu=False)}
    profile = [(n, 2 * est[n] * 1e3) for n in names]
    table = measured_vs_estimated(gpu, profile).splitlines()
    assert table[0].split() == ["kernel", "estimate", "measured", "measured/est"]
    assert [line.split()[0] for line in table[1:]] == names
    assert all(line.endswith("2.00x") for line in table[1:])


def test_the_html_export_carries_the_cost_line_and_the_thunks(tmp_path):
    cpu = session.new(CHAIN, options=SessionOptions(compare=()))
    session.run(cpu, strict=True)
    cpu_page = cpu.save_html(tmp_path / "cpu.html").read_text()
    assert "measured/estimated" in cpu_page and "fusing saves" in cpu_page  # the stepper's fusion run
    gpu = session.new(TWO_DOTS, options=SessionOptions(backend="gpu", compare=()))
    session.run(gpu)
    page = gpu.save_html(tmp_path / "gpu.html").read_text()
    assert "<b>thunks on streams (GPU)</b>" in page and "waits=[event" in page
