"""Run hloscope's GPU backend on a real NVIDIA GPU: the corpus, larger checks, the benchmark.

A standalone script that installs nothing. It needs numpy, ml_dtypes, llvmlite and the CUDA
Python bindings (cuda.bindings or cuda.cuda) on the machine, plus the NVIDIA driver.

    python3 tests/gpu/run_on_device.py                 # everything, from the repository root
    python3 tests/gpu/run_on_device.py --no-bench      # skip the benchmark
    python3 tests/gpu/run_on_device.py --prepare DIR   # (no GPU needed) save PTX made by this
                                                       # machine's LLVM, for --bundle elsewhere
    python3 tests/gpu/run_on_device.py --bundle DIR    # also run that saved PTX

It prints the environment, then one table row per (corpus case, pipeline): PASS, FAIL (with
the largest error), UNSUPPORTED (hloscope says so up front) or ERROR (with the exception),
then the scatter cases against JAX's outputs, then larger random checks against numpy,
then benchmarks/gpu_bench.py --quick. The last line counts the passes; the exit status is 0
only if every check that ran passed (an UNSUPPORTED stretch case does not count as a failure).
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import platform
import sys
import time
import traceback
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
CORPUS = ROOT / "tests" / "corpus"

import hloscope  # noqa: E402
from hloscope.compiler import compile as hs_compile  # noqa: E402
from hloscope.errors import NotSupportedError  # noqa: E402


def environment() -> None:
    import llvmlite
    import llvmlite.binding as llvm

    from hloscope.backend.gpu import ptxas
    from hloscope.backend.gpu.cuda import gpu_available

    print(f"python {platform.python_version()}, numpy {np.__version__}, llvmlite {llvmlite.__version__} "
          f"(LLVM {'.'.join(map(str, llvm.llvm_version_info))}), hloscope {hloscope.__version__}")
    try:
        from hloscope.backend.gpu.codegen import initialize

        initialize()
        llvm.Target.from_triple("nvptx64-nvidia-cuda")
        print("llvmlite has the NVPTX target")
    except Exception as e:
        print(f"llvmlite cannot make PTX here ({e}); use --bundle with PTX prepared elsewhere")
    ok, why = gpu_available()
    print(f"GPU: {why}")
    if ok:
        from hloscope.backend.gpu.cuda import CudaDevice

        print(f"compute capability {'.'.join(map(str, CudaDevice.get().compute_capability))}")
    print(f"ptxas: {ptxas.find() or 'not on PATH'} {ptxas.version()}")


def load_case(name: str):
    data = np.load(CORPUS / f"{name}.npz")
    key = lambda s: int(s[3:])  # noqa: E731
    args = [data[k] for k in sorted((k for k in data.files if k.startswith("arg")), key=key)]
    outs = [data[k] for k in sorted((k for k in data.files if k.startswith("out")), key=key)]
    return args, outs


def compare(got, outs, rtol: float, atol: float) -> str | None:
    """None if the results match, else what is wrong."""
    got = list(got) if isinstance(got, tuple) else [got]
    if len(got) != len(outs):
        return f"{len(got)} results, want {len(outs)}"
    for i, (g, w) in enumerate(zip(got, outs)):
        g = np.asarray(g)
        if g.shape != w.shape or g.dtype != w.dtype:
            return f"result {i}: {g.dtype}{list(g.shape)}, want {w.dtype}{list(w.shape)}"
        if rtol == 0 and atol == 0:
            if not np.array_equal(g, w, equal_nan=True):
                return f"result {i} differs"
        elif not np.allclose(g, w, rtol=rtol, atol=atol, equal_nan=True):
            err = np.nanmax(np.abs(g.astype(np.float64) - w.astype(np.float64)))
            return f"result {i}: max abs error {err:.3g}"
    return None


class Table:
    def __init__(self):
        self.rows, self.passed, self.failed = [], 0, 0

    def add(self, what: str, status: str, detail: str = "", seconds: float = 0.0) -> None:
        self.passed += status == "PASS"
        self.failed += status in ("FAIL", "ERROR")
        print(f"  {what:<44} {status:<12} {seconds * 1e3:8.0f} ms  {detail[:150]}", flush=True)


def run_case(table: Table, name: str, case: dict, pipeline: str) -> None:
    start = time.perf_counter()
    try:
        exe = hs_compile((CORPUS / f"{name}.hlo").read_text(), backend="gpu", pipeline=pipeline)
        args, outs = load_case(name)
        err = compare(exe(*args), outs, case.get("rtol", 1e-5), case.get("atol", 1e-5))
        kinds = ",".join(k.kind for k in exe.report.kernels)
        status, detail = ("PASS", kinds) if err is None else ("FAIL", f"{err} [{kinds}]")
    except NotSupportedError as e:
        status, detail = "UNSUPPORTED", str(e)
    except Exception as e:  # the table must go on; the traceback's last line says where
        status, detail = "ERROR", f"{type(e).__name__}: {e} @ {traceback.format_exc().strip().splitlines()[-3].strip()}"
    table.add(f"{name} [{pipeline}]", status, detail, time.perf_counter() - start)


def corpus(table: Table) -> None:
    cases = json.loads((CORPUS / "manifest.json").read_text())["cases"]
    order = sorted(cases, key=lambda n: (cases[n].get("tier") != "core", n))
    print(f"\ncorpus: {len(cases)} cases x pipelines default and none")
    for name in order:
        for pipeline in ("default", "none"):
            run_case(table, name, cases[name], pipeline)


REDUCER = "r {\n  a = f32[] parameter(0)\n  b = f32[] parameter(1)\n  ROOT c = f32[] add(a, b)\n}\n"
LARGER = {
    # name: (HLO, inputs, numpy reference, rtol)
    "sum of 16M (split reduction)": (
        "HloModule s\n" + REDUCER + "ENTRY e {\n  x = f32[16777216] parameter(0)\n  z = f32[] constant(0)\n"
        "  ROOT s = f32[] reduce(x, z), dimensions={0}, to_apply=r\n}\n",
        lambda g: [g.standard_normal(16777216).astype(np.float32)], lambda x: x.astype(np.float64).sum(), 1e-3),
    "row sums 4096x1000": (
        "HloModule s\n" + REDUCER + "ENTRY e {\n  x = f32[4096,1000] parameter(0)\n  z = f32[] constant(0)\n"
        "  ROOT s = f32[4096] reduce(x, z), dimensions={1}, to_apply=r\n}\n",
        lambda g: [g.standard_normal((4096, 1000)).astype(np.float32)], lambda x: x.sum(1), 1e-4),
    "column sums 1000x4096": (
        "HloModule s\n" + REDUCER + "ENTRY e {\n  x = f32[1000,4096] parameter(0)\n  z = f32[] constant(0)\n"
        "  ROOT s = f32[4096] reduce(x, z), dimensions={0}, to_apply=r\n}\n",
        lambda g: [g.standard_normal((1000, 4096)).astype(np.float32)], lambda x: x.sum(0), 1e-4),
    "matmul 1000x700 @ 700x900": (
        "HloModule m\nENTRY e {\n  a = f32[1000,700] parameter(0)\n  b = f32[700,900] parameter(1)\n"
        "  ROOT d = f32[1000,900] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}\n}\n",
        lambda g: [g.standard_normal((1000, 700)).astype(np.float32), g.standard_normal((700, 900)).astype(np.float32)],
        lambda a, b: a @ b, 1e-3),
}


SCATTER_ADD = "r {\n  a = s32[] parameter(0)\n  b = s32[] parameter(1)\n  ROOT c = s32[] add(a, b)\n}\n"
LARGER["scatter-add of 1M updates onto 1000 elements (atomics race)"] = (
    "HloModule s\n" + SCATTER_ADD + "ENTRY e {\n  x = s32[1000] parameter(0)\n  i = s32[1048576] parameter(1)\n"
    "  u = s32[1048576] parameter(2)\n  ROOT s = s32[1000] scatter(x, i, u), update_window_dims={}, "
    "inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, index_vector_dim=1, to_apply=r\n}\n",
    lambda g: [np.zeros(1000, np.int32), g.integers(0, 1000, 1048576).astype(np.int32),
               g.integers(-50, 50, 1048576).astype(np.int32)],
    lambda x, i, u: _added_at(x, i, u), 0.0)


def _added_at(x, i, u):
    out = x.copy()
    np.add.at(out, i, u)
    return out


def scatter_cases(table: Table) -> None:
    """tests/scatter_cases (take_along_axis, its gradient, scatter-max, max-pool gradients)
    against JAX's recorded outputs (float atomics add in any order: a small tolerance)."""
    folder = ROOT / "tests" / "scatter_cases"
    print(f"\nscatter cases against JAX ({folder})")
    for hlo in sorted(folder.glob("*.hlo")):
        start = time.perf_counter()
        try:
            data = np.load(hlo.with_suffix(".npz"))
            key = lambda s: int(s[3:])  # noqa: E731
            args = [data[k] for k in sorted((k for k in data.files if k.startswith("arg")), key=key)]
            outs = [data[k] for k in sorted((k for k in data.files if k.startswith("out")), key=key)]
            exe = hs_compile(hlo.read_text(), backend="gpu")
            err = compare(exe(*args), outs, 1e-5, 1e-6)
            kinds = ",".join(k.kind for k in exe.report.kernels)
            status, detail = ("PASS", kinds) if err is None else ("FAIL", f"{err} [{kinds}]")
        except Exception as e:
            status, detail = "ERROR", f"{type(e).__name__}: {e}"
        table.add(hlo.stem, status, detail, time.perf_counter() - start)


def larger(table: Table) -> None:
    print("\nlarger checks against numpy")
    rng = np.random.default_rng(0)
    for name, (text, make, reference, rtol) in LARGER.items():
        start = time.perf_counter()
        try:
            args = make(rng)
            got = np.asarray(hs_compile(text, backend="gpu")(*args), np.float64)
            want = np.asarray(reference(*args), np.float64)
            ok = np.allclose(got, want, rtol=rtol, atol=rtol)
            status, detail = ("PASS", "") if ok else ("FAIL", f"max abs error {np.max(np.abs(got - want)):.3g}")
        except Exception as e:
            status, detail = "ERROR", f"{type(e).__name__}: {e}"
        table.add(name, status, detail, time.perf_counter() - start)


def prepare(folder: Path) -> None:
    """Save (program, PTX, signature) of every corpus case compiled here."""
    from hloscope.compiler import compile as compile_any

    folder.mkdir(parents=True, exist_ok=True)
    cases = json.loads((CORPUS / "manifest.json").read_text())["cases"]
    saved = []
    for name in sorted(cases):
        try:
            exe = compile_any((CORPUS / f"{name}.hlo").read_text(), backend="gpu", ptxas=False)
        except NotSupportedError:
            continue
        (folder / f"{name}.pkl").write_bytes(pickle.dumps((exe.program, exe.image, exe.signature)))
        saved.append(name)
    (folder / "cases.json").write_text(json.dumps(saved))
    print(f"saved {len(saved)} compiled cases in {folder}")


def bundle(table: Table, folder: Path) -> None:
    from hloscope.backend.gpu.executable import GpuExecutable
    from hloscope.compilation.record import Compilation, LazyText
    from hloscope.compilation.sources import HloText

    cases = json.loads((CORPUS / "manifest.json").read_text())["cases"]
    print(f"\nbundle {folder}: PTX made elsewhere")
    for name in json.loads((folder / "cases.json").read_text()):
        start = time.perf_counter()
        try:
            program, ptx, signature = pickle.loads((folder / f"{name}.pkl").read_bytes())
            report = Compilation(HloText(""), target="gpu", assembly_text=LazyText(ptx), assembly_language="PTX")
            exe = GpuExecutable(program, ptx, signature, report)
            args, outs = load_case(name)
            err = compare(exe(*args), outs, cases[name].get("rtol", 1e-5), cases[name].get("atol", 1e-5))
            status, detail = ("PASS", "") if err is None else ("FAIL", err)
        except Exception as e:
            status, detail = "ERROR", f"{type(e).__name__}: {e}"
        table.add(f"{name} [bundle]", status, detail, time.perf_counter() - start)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prepare", type=Path, help="save compiled corpus cases here and stop")
    parser.add_argument("--bundle", type=Path, help="also run the compiled cases saved here")
    parser.add_argument("--no-bench", action="store_true", help="skip benchmarks/gpu_bench.py")
    opts = parser.parse_args(argv)
    if opts.prepare:
        prepare(opts.prepare)
        return 0
    environment()
    from hloscope.backend.gpu.cuda import gpu_available

    ok, why = gpu_available()
    if not ok:
        print(f"\nrun_on_device: nothing to run: {why}")
        return 2
    table = Table()
    corpus(table)
    scatter_cases(table)
    larger(table)
    if opts.bundle:
        bundle(table, opts.bundle)
    if not opts.no_bench:
        print("\nbenchmark (benchmarks/gpu_bench.py --quick)")
        sys.path.insert(0, str(ROOT / "benchmarks"))
        try:
            import gpu_bench

            gpu_bench.main(["--quick"])
        except Exception:
            traceback.print_exc()
            table.failed += 1
    print(f"\nrun_on_device: {table.passed} passed, {table.failed} failed")
    return 0 if table.failed == 0 and table.passed > 0 else 1


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    sys.exit(main())
