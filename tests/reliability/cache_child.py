"""Run in a child process by test_cache_integrity.py (a broken cache entry must not be able
to crash the test run itself).

    python cache_child.py corrupt <folder>    every way of damaging an entry, one per line
    python cache_child.py compile <folder>    compile into the cache once (for concurrency)

A damaged entry must be noticed and rebuilt (report.cache == "miss") and the rebuilt
executable must give the right values; it prints `OK <case>` or `BAD <case>: ...`.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import numpy as np

import hloscope

TEXT = """HloModule cache_integrity

ENTRY main {
  x = f32[64,64] parameter(0)
  e = f32[64,64] exponential(x)
  ROOT r = f32[64,64] add(x, e)
}
"""
X = np.linspace(-2, 2, 64 * 64, dtype=np.float32).reshape(64, 64)
WANT = X + np.exp(X)


def _edit_json(edit):
    def damage(folder: Path) -> None:
        (meta,) = folder.glob("*.json")
        meta.write_text(json.dumps(edit(json.loads(meta.read_text()))))

    return damage


def _write(pattern: str, data: bytes):
    def damage(folder: Path) -> None:
        (path,) = folder.glob(pattern)
        path.write_bytes(data)

    return damage


def _delete(pattern: str):
    return lambda folder: [p.unlink() for p in folder.glob(pattern)]


def _set(meta: dict, key: str, value) -> dict:
    return {**meta, key: value}


def _shrink_params(meta: dict) -> dict:
    return {**meta, "params": [{**p, "dims": [2, 2], "nbytes": 16} for p in meta["params"]]}


DAMAGE = {
    "metadata is an empty object": _edit_json(lambda m: {"object_sha256": m["object_sha256"]}),
    "metadata is a list": _edit_json(lambda m: [m]),
    "metadata is null": _edit_json(lambda m: None),
    "metadata is a number": _edit_json(lambda m: 7),
    "arena size changed": _edit_json(lambda m: _set(m, "arena_bytes", m["arena_bytes"] ^ 64)),
    "arena size of the wrong type": _edit_json(lambda m: _set(m, "arena_bytes", "big")),
    "parameter dims changed": _edit_json(_shrink_params),
    "parameter dtype unknown": _edit_json(lambda m: _set(m, "params", [{**p, "dtype": "f33"} for p in m["params"]])),
    "entry name changed": _edit_json(lambda m: _set(m, "entry_name", "no_such_function")),
    "kernels garbled": _edit_json(lambda m: _set(m, "kernels", [{"nonsense": 1}])),
    "empty metadata file": _write("*.json", b""),
    "metadata not UTF-8": _write("*.json", b"\xff\xfe{"),
    "empty object file": _write("*.o", b""),
    "object file missing": _delete("*.o"),
    "metadata file missing": _delete("*.json"),
}


def _compile(folder: Path):
    hloscope.compile_cache.clear()  # as a new process would: only the disk cache is left
    return hloscope.compile(hloscope.parse_hlo(TEXT), backend="cpu", cache_dir=folder)


def corrupt(root: Path) -> None:
    pristine = root / "pristine"
    _compile(pristine)
    for name, damage in DAMAGE.items():
        folder = root / f"case{len(list(root.iterdir()))}"
        shutil.copytree(pristine, folder)
        try:
            damage(folder)
            exe = _compile(folder)
            got = exe(X)
        except Exception as e:  # noqa: BLE001 - reporting the unexpected is the point
            print(f"BAD {name}: {type(e).__name__}: {e}", flush=True)
            continue
        if exe.report.cache != "miss":
            print(f"BAD {name}: the damaged entry was used (cache={exe.report.cache})", flush=True)
        elif not np.allclose(got, WANT, rtol=1e-5, atol=1e-5):
            print(f"BAD {name}: wrong values", flush=True)
        else:
            print(f"OK {name}", flush=True)


def compile_once(folder: Path) -> None:
    exe = _compile(folder)
    assert np.allclose(exe(X), WANT, rtol=1e-5, atol=1e-5)
    print(f"OK {exe.report.cache}", flush=True)


if __name__ == "__main__":
    {"corrupt": corrupt, "compile": compile_once}[sys.argv[1]](Path(sys.argv[2]))
