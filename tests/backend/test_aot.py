"""Ahead-of-time: save_aot writes an object and a header; a C program links and runs them."""

import shutil
import subprocess

import numpy as np
import pytest

from backend_helpers import compile_text, corpus_case

CC = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")

DRIVER = r"""
#include <stdio.h>
#include <stdlib.h>
#include "NAME.h"

static void *slurp(const char *path, long bytes) {
  void *data = aligned_alloc(64, bytes + 64);
  FILE *f = fopen(path, "rb");
  if (!f || fread(data, 1, bytes, f) != (size_t)bytes) { fprintf(stderr, "cannot read %s\n", path); exit(1); }
  fclose(f);
  return data;
}

int main(void) {
  void *buffers[UPPER_NUM_PARAMETERS + UPPER_NUM_RESULTS];
  char path[64];
  for (int i = 0; i < UPPER_NUM_PARAMETERS; i++) {
    snprintf(path, sizeof path, "in%d.bin", i);
    buffers[i] = slurp(path, UPPER_PARAMETER_BYTES[i]);
  }
  for (int i = 0; i < UPPER_NUM_RESULTS; i++)
    buffers[UPPER_NUM_PARAMETERS + i] = aligned_alloc(64, UPPER_RESULT_BYTES[i] + 64);
  void *arena = aligned_alloc(UPPER_ALIGNMENT, UPPER_ARENA_BYTES + 64);
  NAME(buffers, arena);
  for (int i = 0; i < UPPER_NUM_RESULTS; i++) {
    snprintf(path, sizeof path, "out%d.bin", i);
    FILE *f = fopen(path, "wb");
    fwrite(buffers[UPPER_NUM_PARAMETERS + i], 1, UPPER_RESULT_BYTES[i], f);
    fclose(f);
  }
  return 0;
}
"""


@pytest.mark.skipif(CC is None, reason="no C compiler (cc, gcc or clang) found")
@pytest.mark.parametrize("case", ["gelu_mlp", "softmax", "int_select_arith"])
def test_c_program_links_and_matches(case, tmp_path):
    text, args, outs, meta = corpus_case(case)
    exe = compile_text(text)
    obj, header = exe.save_aot(tmp_path, name="prog")
    assert obj.exists() and "void prog(void **buffers, void *arena);" in header.read_text()
    (tmp_path / "main.c").write_text(DRIVER.replace("NAME", "prog").replace("UPPER", "PROG"))
    build = subprocess.run([CC, "-O1", "main.c", "prog.o", "-o", "prog", "-lpthread", "-lm"],
                           cwd=tmp_path, capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    for i, a in enumerate(args):
        (tmp_path / f"in{i}.bin").write_bytes(np.ascontiguousarray(a).tobytes())
    run = subprocess.run(["./prog"], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    for i, want in enumerate(outs):
        got = np.frombuffer((tmp_path / f"out{i}.bin").read_bytes(), want.dtype).reshape(want.shape)
        if meta["rtol"] == 0 and meta["atol"] == 0:
            np.testing.assert_array_equal(got, want)
        else:
            np.testing.assert_allclose(got, want, rtol=meta["rtol"], atol=meta["atol"])


@pytest.mark.skipif(CC is None, reason="no C compiler (cc, gcc or clang) found")
def test_c_program_with_parallel_kernels(tmp_path):
    """AOT objects start their own threads for partitioned kernels (no JIT thread pool)."""
    text, args, outs, meta = corpus_case("layernorm")
    exe = compile_text(text, threads=3, parallel_min_elements=64)
    assert max(k.partitions for k in exe.report.kernels) > 1
    obj, _ = exe.save_aot(tmp_path, name="ln")
    assert b"hloscope_pool_run" not in obj.read_bytes()
    (tmp_path / "main.c").write_text(DRIVER.replace("NAME", "ln").replace("UPPER", "LN"))
    build = subprocess.run([CC, "main.c", "ln.o", "-o", "ln", "-lpthread", "-lm"], cwd=tmp_path,
                           capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    for i, a in enumerate(args):
        (tmp_path / f"in{i}.bin").write_bytes(np.ascontiguousarray(a).tobytes())
    assert subprocess.run(["./ln"], cwd=tmp_path).returncode == 0
    got = np.frombuffer((tmp_path / "out0.bin").read_bytes(), np.float32).reshape(outs[0].shape)
    np.testing.assert_allclose(got, outs[0], rtol=meta["rtol"], atol=meta["atol"])


def test_aot_object_needs_no_blas(tmp_path):
    """Dots use the loop lowering in AOT objects: no BLAS symbol is left undefined."""
    text, *_ = corpus_case("gelu_mlp")
    obj, _ = compile_text(text).save_aot(tmp_path, name="mlp")
    assert b"hloscope_sgemm" not in obj.read_bytes()
