"""Notebook 8's helpers: the occupancy arithmetic (A100 limits), the PTX notes, the two figures."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np

import hloscope
from hloscope.teaching.gpu_figures import launch_svg, reduction_tree_svg
from hloscope.teaching.occupancy import resident_threads
from hloscope.teaching.ptx_notes import annotate_ptx, note_for


def test_occupancy_names_the_limit_that_decides():
    assert resident_threads(256, 22, 0) == (2048, "threads per SM")
    assert resident_threads(32, 14, 0) == (1024, "blocks per SM")  # 32 blocks of 32 threads
    assert resident_threads(256, 128, 0) == (512, "registers")  # 128 * 256 = 32768 registers per block
    assert resident_threads(256, 16, 64 * 1024) == (512, "shared memory")  # 164 KiB holds two 64 KiB blocks


def test_ptx_notes_explain_the_special_registers_and_memory():
    assert "threadIdx.x" in note_for("mov.u32 %r3, %tid.x;")
    assert "blockIdx.x" in note_for("mov.u32 %r1, %ctaid.x;")
    assert "global memory" in note_for("st.global.b32 [%rd10], %r32;")
    gpu = hloscope.compile(hloscope.jit(lambda x: np.exp(x)).lower(np.ones(1000, np.float32)), backend="gpu",
                           ptxas=False)
    annotated = annotate_ptx(gpu.report.ptx)
    assert "// load from global memory" in annotated and "// this thread is done" in annotated
    assert [line.split("//")[0].strip() for line in annotated.splitlines()] == [
        line.strip() for line in gpu.report.ptx.splitlines() if line.strip() and not line.strip().startswith("//")]


def test_the_figures_are_svg_with_the_launch_numbers():
    launch = launch_svg(1_000_000, 128)
    ET.fromstring(launch)
    assert "7,813 blocks" in launch and "4 warps of 32" in launch and "the last has 64 busy threads" in launch
    tree = ET.fromstring(reduction_tree_svg(8))
    assert sum(1 for e in tree.iter() if e.tag.endswith("circle")) == 8 * 4  # 8 lanes, 3 steps + the values
