"""The compile cache: once per process, optionally on disk, corrupt entries rebuilt."""

import numpy as np

import hloscope
from backend_helpers import module
from hloscope.compiler import compile as compile_module

TEXT = module("p = f32[16] parameter(0)\nq = f32[16] exponential(p)\nr = f32[16] add(p, q)")
X = np.linspace(-2, 2, 16).astype(np.float32)


def fresh():
    hloscope.compile_cache.clear()
    return hloscope.parse_hlo(TEXT)


def test_second_compile_hits_memory_cache():
    m = fresh()
    first = compile_module(m)
    second = compile_module(hloscope.parse_hlo(TEXT))
    assert first.report.cache == "miss" and second.report.cache == "memory"
    assert second.native is first.native  # the same machine code, not compiled again
    assert [s.name for s in second.report.stages if s.status == "done"] == ["parse", "cache"]
    assert {s.status for s in second.report.stages[2:]} == {"cached"}  # served, not run again
    assert second.report.records and second.report.records == first.report.records
    assert second.report.llvm_ir == first.report.llvm_ir
    np.testing.assert_array_equal(first(X), second(X))


def test_different_options_miss():
    m = fresh()
    compile_module(m)
    assert compile_module(m, opt_level=1).report.cache == "miss"
    assert compile_module(m, fast_math=True).report.cache == "miss"
    assert compile_module(m, cache=False).report.cache == "off"


def test_disk_cache_roundtrip(tmp_path):
    m = fresh()
    first = compile_module(m, cache_dir=tmp_path)
    assert len(list(tmp_path.glob("*.o"))) == 1 and len(list(tmp_path.glob("*.json"))) == 1
    hloscope.compile_cache.clear()  # as if in a new process
    second = compile_module(m, cache_dir=tmp_path)
    assert second.report.cache == "disk"
    assert second.report.optimized_llvm_ir == first.report.optimized_llvm_ir
    np.testing.assert_array_equal(first(X), second(X))


def test_corrupt_disk_entry_is_rebuilt(tmp_path):
    m = fresh()
    compile_module(m, cache_dir=tmp_path)
    (obj,) = tmp_path.glob("*.o")
    data = bytearray(obj.read_bytes())
    data[len(data) // 2] ^= 0xFF  # flip bits in the machine code
    obj.write_bytes(bytes(data))
    hloscope.compile_cache.clear()
    rebuilt = compile_module(m, cache_dir=tmp_path)
    assert rebuilt.report.cache == "miss"  # the checksum did not match: compiled again
    np.testing.assert_allclose(rebuilt(X), X + np.exp(X), rtol=1e-6)
    hloscope.compile_cache.clear()
    assert compile_module(m, cache_dir=tmp_path).report.cache == "disk"  # and rewritten


def test_truncated_metadata_is_rebuilt(tmp_path):
    m = fresh()
    compile_module(m, cache_dir=tmp_path)
    (meta,) = tmp_path.glob("*.json")
    meta.write_text(meta.read_text()[:50])
    hloscope.compile_cache.clear()
    assert compile_module(m, cache_dir=tmp_path).report.cache == "miss"
