"""LLVM's optimizer and code generator, run in a child process (llvm_worker.py starts it).

Why not in the compiling process: llvmlite's PassBuilder allocates its pass instrumentation
callbacks and never frees them, and every optimization run registers more into them, so
each `-O3` run leaks ~120 KB that no Python code can give back (a notebook compiling
hundreds of times would grow by tens of MB). An LLVM assertion or abort would also take
the Jupyter kernel with it. In a child, the leak dies with the child (the worker replaces
it every few hundred compiles) and a crash is a clear error in the parent.

The child reads requests from stdin and answers on stdout, each a pickled dict behind an
8-byte little-endian length:

    {"op": "optimize", "ir": text, "target": {...}}  -> {"handle": n, "text": optimized IR}
    {"op": "object", "handle": n}                    -> {"data": object file bytes}
    {"op": "assembly", "handle": n}                  -> {"text": assembly, PTX for NVPTX}
    {"op": "assemble", "ir": text, "target": {...}}  -> {"text": assembly of IR optimized already}
    failures                                         -> {"error": type name, "message": text}

`target` names the machine exactly as the parent would build it (triple, cpu, features, -O
level, JIT or position-independent code, tuning, whether to merge identical functions), so the code is the same bytes the parent
would have made. This file imports only llvmlite and the standard library: the child starts
with `python -S` and the path to llvmlite, in about a tenth of a second.
"""

from __future__ import annotations

import pickle
import sys
from typing import IO, Any

MAX_HANDLES = 8  # optimized modules waiting for their object or assembly


_machines: dict[tuple, Any] = {}  # by what makes one: a new one costs 2-3 ms here, per request


def target_machine(llvm: Any, t: dict[str, Any]) -> Any:
    """The TargetMachine `t` describes (see the module docstring), made once per description:
    its subtarget (instruction tables, lowering rules) is built on first use, so a fresh
    machine per optimization and per code generation would build it again each time."""
    key = tuple(t.get(k) for k in ("triple", "cpu", "features", "opt_level", "jit", "pic"))
    if key not in _machines:
        _machines[key] = _new_target_machine(llvm, t)
    return _machines[key]


def _new_target_machine(llvm: Any, t: dict[str, Any]) -> Any:
    target = llvm.Target.from_triple(t["triple"]) if t.get("triple") else llvm.Target.from_default_triple()
    opt = min(int(t["opt_level"]), 3)
    if t.get("jit"):
        return target.create_target_machine(cpu=t["cpu"], features=t["features"], opt=opt, jit=True)
    if t.get("pic") is not None:
        return target.create_target_machine(cpu=t["cpu"], features=t["features"], opt=opt,
                                            reloc="pic" if t["pic"] else "default", codemodel="default")
    return target.create_target_machine(cpu=t["cpu"], features=t["features"], opt=opt)


def optimize(llvm: Any, ir_text: str, t: dict[str, Any]) -> Any:
    """Parse and verify `ir_text`, run the -O<level> pipeline for the target, verify again."""
    mod = llvm.parse_assembly(ir_text)
    mod.verify()
    tm = target_machine(llvm, t)
    mod.triple = tm.triple
    mod.data_layout = str(tm.target_data)
    level = int(t["opt_level"])
    pto = llvm.create_pipeline_tuning_options(speed_level=level)
    pto.loop_vectorization = level >= 2
    pto.slp_vectorization = level >= 2
    for name in ("loop_interleaving", "loop_unrolling"):  # None: LLVM's default for the target
        if t.get(name) is not None:
            setattr(pto, name, bool(t[name]))
    pb = llvm.create_pass_builder(tm, pto)
    if t.get("merge_functions"):  # identical functions become one body and thunks to it
        merge = llvm.create_new_module_pass_manager()
        merge.add_merge_functions_pass()
        merge.run(mod, pb)
    pb.getModulePassManager().run(mod, pb)
    drop_unused_vector_forms(llvm, mod, pb)
    mod.verify()
    return mod


def drop_unused_vector_forms(llvm: Any, mod: Any, pb: Any) -> None:
    """Functions the IR kept `weak_odr` only so that they outlive the optimizer's early passes
    (the math functions' vector forms, which the loop vectorizer calls: backend/mathlib/variants.py)
    become internal, and those that no loop calls are deleted before code generation."""
    kept = [f for f in mod.functions if f.linkage == llvm.Linkage.weak_odr and not f.is_declaration]
    if not kept:
        return
    for f in kept:
        f.linkage = llvm.Linkage.internal
    dce = llvm.create_new_module_pass_manager()
    dce.add_global_dead_code_eliminate_pass()
    dce.run(mod, pb)


class Child:
    """The request loop's state: optimized modules by handle, with their targets."""

    def __init__(self, llvm: Any):
        self.llvm = llvm
        self.modules: dict[int, tuple[Any, dict[str, Any]]] = {}
        self.next = 0

    def answer(self, request: dict[str, Any]) -> dict[str, Any]:
        op = request["op"]
        if op == "optimize":
            mod = optimize(self.llvm, request["ir"], request["target"])
            self.next += 1
            self.modules[self.next] = (mod, request["target"])
            while len(self.modules) > MAX_HANDLES:
                self.modules.pop(min(self.modules))
            return {"handle": self.next, "text": str(mod)}
        if op == "assemble":  # code generation only: the IR was optimized by an earlier request
            mod = self.llvm.parse_assembly(request["ir"])
            tm = target_machine(self.llvm, request["target"])
            mod.triple = tm.triple
            return {"text": tm.emit_assembly(mod)}
        mod, t = self.modules.pop(request["handle"])  # a module is emitted once

        tm = target_machine(self.llvm, t)
        if op == "object":
            return {"data": tm.emit_object(mod)}
        if op == "assembly":
            return {"text": tm.emit_assembly(mod)}
        raise ValueError(f"unknown request {op!r}")


def read_message(stream: IO[bytes]) -> Any:
    head = stream.read(8)
    if len(head) < 8:
        return None
    body = stream.read(int.from_bytes(head, "little"))
    return pickle.loads(body)


def write_message(stream: IO[bytes], message: Any) -> None:
    body = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(len(body).to_bytes(8, "little") + body)
    stream.flush()


def main() -> None:
    sys.path.insert(0, sys.argv[1])  # where llvmlite is (the child runs with -S)
    import llvmlite.binding as llvm

    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    child = Child(llvm)
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing else may write into the answers
    while True:
        request = read_message(inp)
        if request is None:
            return
        try:
            answer = child.answer(request)
        except Exception as e:  # noqa: BLE001 - every failure goes back to the parent, said plainly
            answer = {"error": type(e).__name__, "message": str(e)}
        write_message(out, answer)


if __name__ == "__main__":
    main()
