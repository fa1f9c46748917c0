"""The compile cache: the same module with the same options is compiled once.

The key is a SHA-256 of the module's text, the options that change code, the LLVM and
llvmlite versions, the target triple (an ELF object from Linux and a Mach-O one from macOS
may share a CPU name and a cache folder), and the host CPU and its features (machine code
for one CPU may not run on another). Two levels:

  memory  per process: a hit returns a new Executable sharing the loaded machine code.
  disk    optional (`cache_dir=`): `<key>.o` (the object file) and `<key>.json` (signature,
          arena size, report artifacts, and the object's SHA-256). A hit loads the object
          with llvmlite's MCJIT `add_object_file`; an entry whose checksum does not match,
          or that does not parse, is ignored and rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from pathlib import Path

import llvmlite
import llvmlite.binding as llvm

from .. import __version__
from ..ir.dtypes import element_type, from_numpy
from .report import KernelInfo
from .signature import ArraySpec, Signature

_memory: dict[str, object] = {}
_lock = threading.Lock()


def cache_key(module_text: str, option_fields: dict, cpu: tuple[str, str]) -> str:
    h = hashlib.sha256()
    for part in (module_text, json.dumps(option_fields, sort_keys=True, default=str), llvmlite.__version__,
                 repr(llvm.llvm_version_info), llvm.get_default_triple(), repr(cpu), __version__):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


def memory_get(key: str):
    with _lock:
        return _memory.get(key)


def memory_put(key: str, exe) -> None:
    with _lock:
        _memory[key] = exe


def memory_clear() -> None:
    with _lock:
        _memory.clear()


def _spec_json(s: ArraySpec) -> dict:
    return {"name": s.name, "dtype": from_numpy(s.dtype).name, "dims": list(s.dims),
            "perm": list(s.perm) if s.perm else None, "nbytes": s.nbytes}


def _spec_from(d: dict) -> ArraySpec:
    perm = tuple(d["perm"]) if d["perm"] else None
    return ArraySpec(d["name"], element_type(d["dtype"]).numpy, tuple(d["dims"]), perm, d["nbytes"])


def _nesting_json(n):
    return [_nesting_json(x) for x in n] if isinstance(n, tuple) else n


def _nesting_from(n):
    return tuple(_nesting_from(x) for x in n) if isinstance(n, list) else n


def disk_put(directory, key: str, obj: bytes, entry_name: str, signature: Signature, arena_bytes: int, report) -> None:
    """Write the object and its metadata atomically (a reader never sees half a file)."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    meta = {
        "entry_name": entry_name,
        "arena_bytes": arena_bytes,
        "object_sha256": hashlib.sha256(obj).hexdigest(),
        "params": [_spec_json(s) for s in signature.params],
        "results": [_spec_json(s) for s in signature.results],
        "nesting": _nesting_json(signature.nesting),
        "kernels": [k.__dict__ for k in report.kernels],
        "hlo": report.hlo,
        "llvm_ir": report.llvm_ir,
        "optimized_llvm_ir": report.optimized_llvm_ir,
    }
    meta["metadata_sha256"] = _metadata_digest(meta)
    _atomic_write(d / f"{key}.o", obj)
    _atomic_write(d / f"{key}.json", json.dumps(meta).encode())


def _atomic_write(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def disk_get(directory, key: str):
    """(object bytes, metadata) of a valid entry; None if missing, corrupt or stale."""
    d = Path(directory)
    try:
        meta = json.loads((d / f"{key}.json").read_text())
        obj = (d / f"{key}.o").read_bytes()
    except (OSError, ValueError):
        return None
    if not isinstance(meta, dict) or meta.get("metadata_sha256") != _metadata_digest(meta):
        return None  # damaged metadata: a wrong arena size or shape would make the code write out of bounds
    if hashlib.sha256(obj).hexdigest() != meta.get("object_sha256"):
        return None
    return obj, meta


def _metadata_digest(meta: dict) -> str:
    """SHA-256 of the metadata (all but this digest), as canonical JSON."""
    rest = {k: v for k, v in meta.items() if k != "metadata_sha256"}
    return hashlib.sha256(json.dumps(rest, sort_keys=True).encode()).hexdigest()


def signature_from(meta: dict) -> Signature:
    return Signature(
        tuple(_spec_from(s) for s in meta["params"]),
        tuple(_spec_from(s) for s in meta["results"]),
        _nesting_from(meta["nesting"]),
    )


def kernels_from(meta: dict) -> list[KernelInfo]:
    return [KernelInfo(**{**k, "buffers": tuple(k["buffers"]), "notes": tuple(k["notes"])}) for k in meta["kernels"]]
