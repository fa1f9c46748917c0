"""The "cache" stage: a module compiled before, with the same options, is not compiled again.

The key is a SHA-256 of the module's text, the target and its options that change code,
and the versions of what makes the code (hloscope, llvmlite, LLVM, the host CPU: see the
target's `cache_key_fields`). The two lower layers of the compile cache (runtime/compile_cache.py;
the signature layer above them is each function's):

  memory  per process (`CACHE`, least recently used first out): a hit shares the machine
          code and every artifact of the first compilation, pass records included
  disk    where the target keeps one (the CPU's object files with `cache_dir=`): a hit has
          the code and its texts, but not the pass records

On a hit, the stages the cache stands in for are marked "cached" and do not run.
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

from ..version import __version__
from ..runtime.compile_cache import CompileCache, LruCache
from .record import TRANSIENT, Compilation
from .stages import Stage, made_by
from .target import Target

if TYPE_CHECKING:
    from .executable import Executable

COMPILE_CACHE = CompileCache()  # hloscope.compile_cache: every layer
CACHE: LruCache[Executable] = COMPILE_CACHE.memory



def cache_key(module_text: str, fields: dict[str, Any]) -> str:
    h = hashlib.sha256()
    for part in (module_text, json.dumps(fields, sort_keys=True, default=str), __version__):
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()


def pipeline_key(spec: Any) -> str | None:
    """The pipeline as part of the key: a name or names in order; None for a Pipeline object,
    whose passes may carry options no text captures (such a compile is not cached)."""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, (list, tuple)) and all(isinstance(n, str) for n in spec):
        return ",".join(spec)
    return None


def cache_stage(target: Target, cached: tuple[Stage, ...]) -> Stage:
    """The lookup, run right after the source stage; a hit stands in for the `cached` stages
    and copies what they make (their declarations: Stage.makes) from the first compilation."""
    copied = tuple(f for f in made_by(list(cached)) if f not in TRANSIENT and f != "executable")
    names = tuple(s.name for s in cached)

    def lookup(c: Compilation) -> str:
        fields = target.cache_key_fields(c) if target.cache_key_fields is not None else None
        pipeline = pipeline_key(c.options.get("pipeline", "default"))
        if fields is None or pipeline is None or c.input_module is None:
            c.cache = "off"
            return "off" if fields is None else "off: a Pipeline object has no stable key"
        key = c.cache_key = cache_key(c.input_module.to_text(), {**fields, "pipeline": pipeline})
        exe = CACHE.get(key)
        if exe is not None:
            _take(c, exe, "memory", names, copied)
            return "hit in memory: compiled earlier in this process"
        exe = target.load_from_disk(c, key)
        if exe is not None:
            CACHE.put(key, exe, weight(exe.report))
            COMPILE_CACHE.disk_hits += 1
            _take(c, exe, "disk", names, copied)
            return "hit on disk: machine code loaded, pass records are not kept there"
        c.cache = "miss"
        return f"miss (key {key[:12]})"

    return Stage("cache", lookup, needs=("parse", "trace"), doc="the same module and options compile once",
                 makes=("cache", "cache_key", "executable", *copied))


def _take(c: Compilation, exe: Executable, where: str, cached: tuple[str, ...], copied: tuple[str, ...]) -> None:
    first = exe.report
    for name in copied:
        setattr(c, name, getattr(first, name))
    c.cache = where
    c.executable = exe.with_report(c.compiled_part())
    for s in c.stages:
        if s.name in cached and s.status == "pending":
            s.status, s.note = "cached", f"from the {where} cache"


def remember(c: Compilation, exe: Executable) -> None:
    """Keep a fresh executable for later compilations of the same key (the load stage)."""
    if c.cache_key:
        CACHE.put(c.cache_key, exe, weight(c))


def weight(c: Compilation) -> int:
    """Roughly what an entry keeps alive: machine code and the texts of the record."""
    texts = (c.llvm_ir, c.optimized_llvm_ir, c.assembly_text.known, c.program)
    return c.object_size + sum(len(t) for t in texts if t) + 64 * sum(len(r.log) + 1 for r in c.records)

