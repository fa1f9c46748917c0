"""ptxas's cubin is kept; SASS comes from cuobjdump or nvdisasm, on PATH or in NVIDIA's wheels."""

import stat
import sys

import pytest

from hloscope.backend.gpu import cuda_tools, sass
from gpu_helpers import compile_gpu, corpus_case, needs_ptxas

DISASSEMBLER = next((t for t in sass.TOOLS if cuda_tools.find_tool(t)), None)
needs_disassembler = pytest.mark.skipif(
    DISASSEMBLER is None, reason="neither cuobjdump nor nvdisasm is on PATH or in an nvidia-cuda-* wheel")


@pytest.fixture(scope="module")
def softmax():
    return compile_gpu(corpus_case("softmax")[0]).report


@needs_ptxas
def test_the_cubin_is_kept(softmax):
    cubin = softmax.ptxas.cubin
    assert cubin[:4] == b"\x7fELF"  # a CUDA ELF object
    for k in softmax.kernels:
        assert k.name.encode() in cubin


@needs_ptxas
@needs_disassembler
def test_sass_per_kernel_and_in_the_dump(softmax, tmp_path):
    result = softmax.ptxas
    assert result.disassembly.tool == DISASSEMBLER
    for k in softmax.kernels:
        code = result.sass_of(k.name)
        assert k.name in code.splitlines()[0] and ("EXIT" in code or "RET" in code)
    softmax.dump(tmp_path)
    assert (tmp_path / "kernels.sass").read_text().strip() == result.sass.strip()


def test_no_disassembler_is_said_plainly(monkeypatch):
    monkeypatch.setattr(sass, "find_tool", lambda name: None)
    found = sass.disassemble(b"\x7fELF")
    assert found.text == "" and found.note == sass.NOT_FOUND
    assert "cuobjdump" in found.note and "nvdisasm" in found.note and "pip install" in found.note


def test_tools_are_found_inside_a_wheel(tmp_path, monkeypatch):
    folder = tmp_path / "site" / "nvidia" / "cu13" / "bin"
    folder.mkdir(parents=True)
    tool = folder / "hloscope-test-tool"
    tool.write_text("#!/bin/sh\n")
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    assert cuda_tools.find_tool("hloscope-test-tool") is None
    monkeypatch.setattr(sys, "path", [str(tmp_path / "site")] + sys.path)
    assert cuda_tools.find_tool("hloscope-test-tool") == str(tool)


def test_split_kernels_reads_both_tools_output():
    cuobjdump = "\tcode for sm_80\n\t\tFunction : k1\n  /*0000*/ EXIT ;\n\t\tFunction : k2\n  /*0000*/ RET ;\n"
    nvdisasm = "\t.section .text.k1\n.text.k1:\n  /*0000*/ EXIT ;\n.text.k2:\n  /*0000*/ RET ;\n"
    for text in (cuobjdump, nvdisasm):
        kernels = sass.split_kernels(text)
        assert list(kernels) == ["k1", "k2"] and "EXIT" in kernels["k1"] and "RET" in kernels["k2"]


@needs_ptxas
@needs_disassembler
def test_the_ir_tab_shows_ptx_next_to_sass(softmax):
    from hloscope.viz.ir_text import available_views, view_html

    assert {"SASS", "PTX | SASS"} <= set(available_views(softmax))
    name = softmax.kernels[0].name
    both = view_html(softmax, "PTX | SASS", name)
    assert f".entry {name}" in both and (f"Function : {name}" in both or f".text.{name}" in both)
