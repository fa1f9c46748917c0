"""The CPU's compile cache on disk (`cache_dir=`): machine code kept across processes.

Each entry is two files named by the compile cache key (hloscope.compilation.caching; the
library's parts use the same entries, library/loader.py):

    <key>.o      the object files (one per part of a module compiled in parts, one after
                 another), loaded with llvmlite's MCJIT `add_object_file`
    <key>.json   the signature, arena size, entry name, kernels and the IR texts, the
                 objects' sizes and SHA-256, and a SHA-256 of all that metadata

Both are written atomically (a reader never sees half a file). An entry whose checksums do
not match, or that does not parse, is ignored and rebuilt: damaged metadata could give a
wrong arena size or shape, and then the code would write out of bounds.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from ...compilation.record import Compilation, Kernel
from ...ir.dtypes import element_type, from_numpy
from ...runtime.signature import ArraySpec, Signature

CPU_KERNEL_FIELDS = ("name", "instruction", "kind", "buffers", "notes", "partitions", "extent", "function")


def put(directory: str | Path, key: str, objects: list[bytes], c: Compilation, signature: Signature) -> None:
    """Write the objects and their metadata."""
    write_entry(directory, key, objects, {
        "entry_name": c.entry_name,
        "arena_bytes": c.arena_bytes,
        "params": [_spec_json(s) for s in signature.params],
        "results": [_spec_json(s) for s in signature.results],
        "nesting": _nesting_json(signature.nesting),
        "kernels": [{f: getattr(k, f) for f in CPU_KERNEL_FIELDS} for k in c.kernels],
        "hlo": c.hlo,
        "llvm_ir": c.llvm_ir,
        "optimized_llvm_ir": c.optimized_llvm_ir,
    })


def write_entry(directory: str | Path, key: str, objects: list[bytes], meta: dict[str, Any]) -> None:
    """Objects and their metadata (with the objects' sizes and checksums) as one entry."""
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    obj = b"".join(objects)
    meta = {**meta, "object_sizes": [len(o) for o in objects], "object_sha256": hashlib.sha256(obj).hexdigest()}
    meta["metadata_sha256"] = _metadata_digest(meta)
    _atomic_write(d / f"{key}.o", obj)
    _atomic_write(d / f"{key}.json", json.dumps(meta).encode())


def get(directory: str | Path, key: str) -> tuple[list[bytes], dict[str, Any]] | None:
    """(object files, metadata) of a valid entry; None if missing, corrupt or stale."""
    d = Path(directory)
    try:
        meta = json.loads((d / f"{key}.json").read_text())
        obj = (d / f"{key}.o").read_bytes()
    except (OSError, ValueError):
        return None
    if not isinstance(meta, dict) or meta.get("metadata_sha256") != _metadata_digest(meta):
        return None
    sizes = meta.get("object_sizes")
    if hashlib.sha256(obj).hexdigest() != meta.get("object_sha256") or not isinstance(sizes, list) \
            or sum(sizes) != len(obj):
        return None
    starts = [sum(sizes[:k]) for k in range(len(sizes))]
    return [obj[a:a + n] for a, n in zip(starts, sizes)], meta


def signature_from(meta: dict[str, Any]) -> Signature:
    return Signature(
        tuple(_spec_from(s) for s in meta["params"]),
        tuple(_spec_from(s) for s in meta["results"]),
        _nesting_from(meta["nesting"]),
    )


def kernels_from(meta: dict[str, Any]) -> list[Kernel]:
    return [Kernel(**{**k, "buffers": tuple(k["buffers"]), "notes": tuple(k["notes"])}) for k in meta["kernels"]]


def _atomic_write(path: Path, data: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def _metadata_digest(meta: dict[str, Any]) -> str:
    """SHA-256 of the metadata (all but this digest), as canonical JSON."""
    rest = {k: v for k, v in meta.items() if k != "metadata_sha256"}
    return hashlib.sha256(json.dumps(rest, sort_keys=True).encode()).hexdigest()


def _spec_json(s: ArraySpec) -> dict[str, Any]:
    return {"name": s.name, "dtype": from_numpy(s.dtype).name, "dims": list(s.dims), "nbytes": s.nbytes}


def _spec_from(d: dict[str, Any]) -> ArraySpec:
    return ArraySpec(d["name"], element_type(d["dtype"]).numpy, tuple(d["dims"]), d["nbytes"])


def _nesting_json(n: Any) -> Any:
    return [_nesting_json(x) for x in n] if isinstance(n, tuple) else n


def _nesting_from(n: Any) -> Any:
    return tuple(_nesting_from(x) for x in n) if isinstance(n, list) else n


