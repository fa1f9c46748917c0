"""The CPU backend's host-specific parts, with the portable paths forced on this machine.

The thread pool's mutex and condition variables start as garbage (as on a host where zero
is not a valid initial state) and the init function alone must make them work; the BLAS
thread control is found through scipy's own module handle, and a BLAS without one gets a
visible no-op stand-in; CPU counting and the host check do not rely on Linux.
"""

import ctypes
import os
import re
import shutil
import subprocess
import sys
import threading

import numpy as np
import pytest
from llvmlite import ir

from backend_helpers import compile_text, module
from pool_probes import Context, add_probe_task
from hloscope.backend.cpu import blas, jit
from hloscope.backend.cpu.fast import thread_pool
from hloscope.backend.cpus import share_cpus, usable_cpus
from hloscope.backend.llvm_types import I64, PTR
from hloscope.errors import NotSupportedError
from hloscope.backend.cpu import target as cpu_target
from hloscope.backend.llvm_worker import parts_for
from hloscope.compilation.caching import cache_key
from hloscope.compiler import new_compilation

CC = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
GARBAGE = 0xA5
# Pool engines whose threads are parked on their condition variables: a spurious wakeup
# runs pool code, so the machine code must outlive the test (as the real pool does).
_KEEP_LOADED = []

def _add_probes(pool: thread_pool.PoolModule) -> None:
    """Test-only functions in the pool's module: a task (dst[i] = 3 src[i] + 1 on [begin,
    end)), the address of each sync object, and how many workers were started."""
    add_probe_task(pool)
    for name, storage in pool.sync.items():
        fn = ir.Function(pool.m, ir.FunctionType(PTR, []), f"probe_{name}")
        ir.IRBuilder(fn.append_basic_block("entry")).ret(storage)
    fn = ir.Function(pool.m, ir.FunctionType(I64, []), "probe_workers")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    b.ret(b.load(pool.state["workers"], typ=I64))


def _call(engine, name, restype, *args, argtypes=()):
    return ctypes.CFUNCTYPE(restype, *argtypes)(engine.get_function_address(name))(*args)


@pytest.fixture(scope="module")
def garbage_pool():
    """A pool whose sync objects start as GARBAGE bytes, loaded (and so initialized) the way
    the process's own pool is."""
    jit.initialize()  # the native target
    pool = thread_pool.PoolModule(sync_fill=GARBAGE)
    _add_probes(pool)
    engine = jit.load_thread_pool(pool)
    _KEEP_LOADED.append(engine)
    return engine


def _init_body(ir_text: str) -> str:
    start = ir_text.index(f'i32 @"{thread_pool.INIT_SYMBOL}"()\n{{')
    return ir_text[start : ir_text.index("\n}", start)]


def test_pool_ir_initializes_every_sync_object():
    text = thread_pool.pool_ir()
    init = _init_body(text)
    assert init.count('call i32 @"pthread_mutex_init"([64 x i8]* @"pool.mutex", ptr null)') == 1
    assert init.count('call i32 @"pthread_cond_init"([64 x i8]* @"pool.work", ptr null)') == 1
    assert init.count('call i32 @"pthread_cond_init"([64 x i8]* @"pool.done", ptr null)') == 1
    for name in thread_pool.SYNC_OBJECTS:
        assert re.search(rf'@"pool\.{name}" = internal global \[{thread_pool.SYNC_BYTES} x i8\] .*align 64', text)


def test_sync_fill_is_the_storage_initializer():
    garbage = thread_pool.pool_ir(sync_fill=GARBAGE)
    assert '@"pool.mutex" = internal global [64 x i8] c"' + "\\a5" * 64 + '"' in garbage
    with pytest.raises(ValueError, match="one byte"):
        thread_pool.PoolModule(sync_fill=256)


def test_init_overwrites_the_garbage(garbage_pool):
    """Every C library's init writes the first word (glibc and musl clear the object, macOS
    sets its signature there), so none still holds the fill."""
    for name in thread_pool.SYNC_OBJECTS:
        address = _call(garbage_pool, f"probe_{name}", ctypes.c_void_p)
        assert ctypes.string_at(address, 8) != bytes([GARBAGE] * 8), name


def _run_job(engine, src: np.ndarray, dst: np.ndarray, count: int) -> None:
    """hloscope_pool_run over `count` near-equal slices, from a Python thread so that a hang
    fails the test instead of stopping it."""
    cuts = [len(src) * p // count for p in range(count + 1)]
    contexts = (Context * count)(*(Context(src.ctypes.data, dst.ctypes.data, lo, hi) for lo, hi in zip(cuts, cuts[1:])))
    task = engine.get_function_address("probe_task")
    argtypes = (ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64)
    runner = threading.Thread(target=_call, daemon=True, args=(engine, thread_pool.SYMBOL, None, task,
                              ctypes.addressof(contexts), ctypes.sizeof(Context), count), kwargs={"argtypes": argtypes})
    runner.start()
    runner.join(timeout=60)
    assert not runner.is_alive(), f"a pool job of {count} partitions did not finish"


def test_garbage_pool_runs_real_work_after_init(garbage_pool):
    """Many jobs, so workers park on the condition variables and wake again between them."""
    src = np.random.default_rng(0).standard_normal(100_003)
    for round in range(30):
        count = (1, 2, 5, 8)[round % 4]
        dst = np.full_like(src, np.nan)
        _run_job(garbage_pool, src, dst, count)
        np.testing.assert_array_equal(dst, src * 3.0 + 1.0, err_msg=f"round {round}, {count} partitions")
    assert _call(garbage_pool, "probe_workers", ctypes.c_int64) == 7  # count - 1 for the largest job


@pytest.mark.skipif(CC is None, reason="no C compiler (cc, gcc or clang) found")
def test_sync_storage_fits_this_hosts_pthread_types(tmp_path):
    (tmp_path / "sizes.c").write_text(
        "#include <pthread.h>\n#include <stdalign.h>\n#include <stdio.h>\n"
        "int main(void) { printf(\"%zu %zu %zu %zu\\n\", sizeof(pthread_mutex_t), alignof(pthread_mutex_t),"
        " sizeof(pthread_cond_t), alignof(pthread_cond_t)); return 0; }\n")
    build = subprocess.run([CC, "sizes.c", "-o", "sizes"], cwd=tmp_path, capture_output=True, text=True)
    assert build.returncode == 0, build.stderr
    mutex, mutex_align, cond, cond_align = map(int, subprocess.check_output(["./sizes"], cwd=tmp_path).split())
    assert max(mutex, cond) <= thread_pool.SYNC_BYTES
    assert 64 % mutex_align == 0 and 64 % cond_align == 0


def test_process_pool_runs_a_parallel_kernel():
    exe = compile_text(module("p = f32[512,600] parameter(0)\nr = f32[512,600] exponential(p)"),
                       threads=4, parallel_min_elements=1000)
    assert max(k.partitions for k in exe.report.kernels) > 1
    x = np.random.default_rng(1).standard_normal((512, 600)).astype(np.float32)
    np.testing.assert_allclose(exe(x), np.exp(x), rtol=2e-6)


DOT = module("a = f32[96,64] parameter(0)\nb = f32[64,80] parameter(1)\n"
             "d = f32[96,80] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}")


class _DlInfo(ctypes.Structure):
    _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", ctypes.c_void_p),
                ("dli_sname", ctypes.c_char_p), ("dli_saddr", ctypes.c_void_p)]


def _library_file(address: int) -> str:
    """The shared library holding `address`, by the dynamic loader's own answer (dladdr)."""
    dladdr = ctypes.CDLL(None).dladdr
    dladdr.argtypes, dladdr.restype = [ctypes.c_void_p, ctypes.POINTER(_DlInfo)], ctypes.c_int
    found = _DlInfo()
    assert dladdr(address, ctypes.byref(found)), "dladdr found no library for the address"
    return os.path.realpath(found.dli_fname.decode())


def test_thread_control_is_in_the_library_the_gemms_come_from():
    """numpy and scipy each ship an OpenBLAS, both exporting openblas_set_num_threads_local:
    the control must be the one of the library whose gemm the kernels call."""
    if not blas.gemm_addresses() or not blas.info().thread_control:
        pytest.skip("this BLAS has no per-thread thread control (the stand-in is tested below)")
    gemm_file = _library_file(blas.gemm_addresses()["hloscope_sgemm"])
    assert _library_file(blas.threads_local_address()) == gemm_file
    assert _library_file(blas.gemm_addresses()["hloscope_dgemm"]) == gemm_file
    assert "openblas" in os.path.basename(gemm_file).lower() or "mkl" in gemm_file.lower()


def test_numpys_openblas_is_preferred_and_called_with_its_own_integer_width():
    found = blas.numpy_gemm()
    if found is None:
        pytest.skip("numpy's BLAS here is not a scipy-openblas build")
    chosen = blas.gemm_library()
    assert chosen is not None and chosen.addresses == found.addresses and blas.index_bits() == found.index_bits == 64
    assert "numpy's copy (64-bit indices)" in blas.info().describe()
    exe = compile_text(DOT)
    assert re.search(r'%"ldc(\.\d+)?" = alloca i64', exe.report.llvm_ir)
    rng = np.random.default_rng(4)
    a, b = rng.standard_normal((96, 64)).astype(np.float32), rng.standard_normal((64, 80)).astype(np.float32)
    np.testing.assert_allclose(exe(a, b), a @ b, rtol=1e-5, atol=1e-5)


FALLBACK = "HLO = " + repr(DOT) + """
import re, numpy as np
from hloscope.backend.cpu import blas
blas.numpy_gemm = lambda: None  # as on a numpy whose BLAS is not OpenBLAS, before anything loads
import hloscope
from hloscope.compiler import compile
exe = compile(hloscope.parse_hlo(HLO), cache=False, threads=2, parallel_min_elements=1000)
assert blas.info().source == "scipy" and blas.index_bits() == 32, blas.info()
assert re.search(r'%"ldc(\\.\\d+)?" = alloca i32', exe.report.llvm_ir)
rng = np.random.default_rng(5)
a, b = rng.standard_normal((96, 64)).astype(np.float32), rng.standard_normal((64, 80)).astype(np.float32)
np.testing.assert_allclose(exe(a, b), a @ b, rtol=1e-5, atol=1e-5)
print(blas.info().describe())
"""


def test_scipys_blas_is_the_fallback_with_32_bit_indices():
    """In a fresh process: the JIT's gemm symbols are bound once per process."""
    done = subprocess.run([sys.executable, "-c", FALLBACK], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "through scipy.linalg.cython_blas" in done.stdout


def test_no_thread_control_gives_the_stand_in():
    stand_in = blas.no_threads_address()
    assert blas.find_thread_control(None) == ("", stand_in)
    assert blas.find_thread_control(blas.blas_handle(), names=("no_such_blas_function",)) == ("", stand_in)
    call = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int)(stand_in)
    assert [call(n) for n in (1, 4, 0)] == [1, 1, 1]
    text = blas.BlasInfo("accelerate", "").describe()
    assert "accelerate" in text and "no-op stand-in" in text
    assert "loops" in blas.BlasInfo("", "").describe()



def test_dot_without_scipy_blas_lowers_to_loops(monkeypatch):
    monkeypatch.setattr(blas, "gemm_addresses", lambda: {})
    exe = compile_text(DOT, dot="blas")
    assert [k.kind for k in exe.report.kernels] == ["dot-loops"]
    rng = np.random.default_rng(2)
    a, b = rng.standard_normal((96, 64)).astype(np.float32), rng.standard_normal((64, 80)).astype(np.float32)
    np.testing.assert_allclose(exe(a, b), a @ b, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("dtype,rtol", [("f32", 2e-5), ("f64", 1e-12)])
def test_big_parallel_dot_matches_numpy(dtype, rtol):
    exe = compile_text(module(f"a = {dtype}[768,384] parameter(0)\nb = {dtype}[384,512] parameter(1)\n"
                              f"d = {dtype}[768,512] dot(a, b), lhs_contracting_dims={{1}}, rhs_contracting_dims={{0}}"),
                       threads=4, parallel_min_elements=1000)
    assert [(k.kind, k.partitions) for k in exe.report.kernels] == [("dot-blas", 4)]
    rng = np.random.default_rng(3)
    a = rng.standard_normal((768, 384)).astype(np.dtype(dtype.replace("f", "float")))
    b = rng.standard_normal((384, 512)).astype(a.dtype)
    np.testing.assert_allclose(exe(a, b), a @ b, rtol=rtol, atol=rtol * 100)


def test_usable_cpus_with_and_without_affinity(monkeypatch):
    monkeypatch.setattr("hloscope.backend.cpus._share", None)
    if hasattr(os, "sched_getaffinity"):
        assert usable_cpus() == len(os.sched_getaffinity(0))
    monkeypatch.delattr(os, "sched_getaffinity", raising=False)  # as on macOS
    assert usable_cpus() == (os.cpu_count() or 1)
    exe = compile_text(module("p = f32[4] parameter(0)\nr = f32[4] negate(p)"))
    np.testing.assert_array_equal(exe(np.arange(4, dtype=np.float32)), -np.arange(4, dtype=np.float32))


def test_a_share_of_the_cpus_bounds_threads_and_llvm_parts(monkeypatch):
    monkeypatch.setattr("hloscope.backend.cpus._share", None)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(8)), raising=False)
    assert usable_cpus() == 8 and parts_for(0) == 4
    share_cpus(3)
    assert usable_cpus() == 3 and parts_for(0) == 3
    exe = compile_text(module("p = f32[1024,1024] parameter(0)\nr = f32[1024,1024] negate(p)"), parallel_min_elements=1)
    assert max(k.partitions for k in exe.report.kernels) == 3  # threads=0: the share, not the 8 CPUs
    share_cpus(None)
    assert usable_cpus() == 8
    with pytest.raises(ValueError, match="at least 1 CPU"):
        share_cpus(0)


def test_check_host_names_what_is_missing():
    jit.check_host()  # this machine
    with pytest.raises(NotSupportedError, match="POSIX"):
        jit.check_host(os_name="nt")
    with pytest.raises(NotSupportedError, match="64-bit"):
        jit.check_host(pointer_bytes=4)


def test_cache_key_names_the_target_triple(monkeypatch):
    c = new_compilation("HloModule m", "cpu")
    key = cache_key("HloModule m", cpu_target.cache_key_fields(c) or {})
    monkeypatch.setattr(cpu_target.llvm, "get_default_triple", lambda: "arm64-apple-darwin23.0.0")
    assert cache_key("HloModule m", cpu_target.cache_key_fields(c) or {}) != key


@pytest.mark.parametrize("cpu,features,full_width", [
    ("emeraldrapids", "+avx2,+avx512f,+fma", True),
    ("sapphirerapids", "+avx512f", True),
    ("skylake-avx512", "+avx2,+avx512f", False),  # clocks down under 512-bit code: LLVM's 256 stays
    ("znver4", "+avx512f", False),
    ("emeraldrapids", "+avx2,-avx512f", False),  # AVX-512 turned off (a VM may hide it)
])
def test_512_bit_vectors_are_preferred_only_on_cores_where_they_pay(monkeypatch, cpu, features, full_width):
    class Features:
        def flatten(self):
            return features

    monkeypatch.setattr(jit.llvm, "get_host_cpu_name", lambda: cpu)
    monkeypatch.setattr(jit.llvm, "get_host_cpu_features", lambda: Features())
    jit.real_host_cpu.cache_clear()
    try:
        name, got = jit.real_host_cpu()
        assert name == cpu and got.startswith(features)
        assert got.endswith(",-prefer-256-bit") == full_width
    finally:
        monkeypatch.undo()
        jit.real_host_cpu.cache_clear()
