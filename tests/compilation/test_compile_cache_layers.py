"""One compile cache in layers: each function's signatures, the process's memory, a disk
folder; `hloscope.compile_cache` reports and clears them all."""

import gc

import numpy as np

import hloscope
import hloscope.lazy as lz
from hloscope import numpy as hnp
from hloscope.runtime.compile_cache import SignatureCache


def scaled(x):
    return hnp.tanh(x) * 2.0


def test_every_layer_is_counted_and_cleared_together(tmp_path):
    hloscope.compile_cache.clear()
    before = hloscope.compile_cache.info()
    f = hloscope.jit(scaled)
    x = np.linspace(-1, 1, 8, dtype=np.float32)
    f(x), f(x), f(x[:4])
    auto = hloscope.autojit(scaled)
    auto(x), auto(x)
    t = lz.tensor(x)
    y = t * 3.0
    lz.mark_step()
    info = hloscope.compile_cache.info()
    assert info.signature.functions >= before.signature.functions + 2
    assert info.signature.entries >= 2 + 1 + 1  # two jit signatures, one cluster, one step graph
    assert info.signature.hits - before.signature.hits >= 2  # jit's and autojit's second calls
    assert info.memory.entries >= 2 and info.memory.bytes > 0
    assert "signature" in str(info) and "memory" in str(info) and "disk" in str(info)

    hloscope.compile_cache.clear()
    after = hloscope.compile_cache.info()
    assert after.signature.entries == 0 and after.memory.entries == 0
    assert lz.cache_size() == 0 and f.cache_info().signatures == ()
    misses = f.cache_info().misses
    np.testing.assert_allclose(f(x), np.tanh(x) * 2.0, rtol=1e-5)
    assert f.cache_info().misses == misses + 1  # cleared: compiled again


def test_a_disk_hit_is_counted(tmp_path):
    text = "HloModule m\nENTRY e {\n  p = f32[4] parameter(0)\n  ROOT r = f32[4] exponential(p)\n}\n"
    hloscope.compile_cache.clear()
    hloscope.compile(text, cache_dir=tmp_path)
    hloscope.compile_cache.clear()  # as a new process would see it: only the disk is left
    hits = hloscope.compile_cache.info().disk_hits
    assert hloscope.compile(text, cache_dir=tmp_path).report.cache == "disk"
    assert hloscope.compile_cache.info().disk_hits == hits + 1


def test_a_functions_layer_goes_with_it():
    def local(x):
        return x + 1.0

    f = hloscope.jit(local)
    f(np.ones(3, np.float32))
    owners = lambda: [c.owner for c in hloscope.compile_cache.signature_caches()]  # noqa: E731
    assert "hloscope.jit of local" in owners()
    del f
    gc.collect()
    assert "hloscope.jit of local" not in owners()


def test_signature_cache_bounds_its_entries_least_recent_first():
    cache: SignatureCache[int] = SignatureCache("test", max_entries=2)
    cache.put("a", 1), cache.put("b", 2)
    assert cache.get("a") == 1  # now "b" is the least recent
    cache.put("c", 3)
    assert list(cache.keys()) == ["a", "c"] and cache.get("b") is None
    assert (cache.hits, cache.misses) == (1, 1)
