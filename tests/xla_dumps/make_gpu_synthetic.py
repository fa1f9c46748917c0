"""Writes tests/xla_dumps/gpu_synthetic: an XLA:GPU-style dump folder, NOT a real capture.

    PYTHONPATH=. .venv/bin/python tests/xla_dumps/make_gpu_synthetic.py

There is no GPU and no CUDA jaxlib here, so XLA:GPU cannot be run. The file NAMES and the
report FORMATS follow XLA's sources (README.md in that folder cites them); the CONTENTS are
hloscope's own compilation of a small module for its GPU target (its passes, which carry
XLA's pass names, its optimized module, memory plan, LLVM IR and PTX), written in XLA's
formats. hloscope.xla.load must read it as it would read XLA:GPU's.
"""

from __future__ import annotations

import re
from pathlib import Path

import hloscope

OUT = Path(__file__).resolve().parent / "gpu_synthetic"
PREFIX = "module_0000.jit_f."
DEVICE = "sm_8.0"  # CudaComputeCapability{8, 0}.ToString()

HLO = """HloModule jit_f, entry_computation_layout={(f32[8,256]{1,0}, f32[8,256]{1,0})->(f32[8,256]{1,0}, f32[8]{0})}

add {
  a = f32[] parameter(0)
  b = f32[] parameter(1)
  ROOT s = f32[] add(a, b)
}

ENTRY main.9 {
  x.1 = f32[8,256]{1,0} parameter(0)
  y.1 = f32[8,256]{1,0} parameter(1)
  add.2 = f32[8,256]{1,0} add(x.1, y.1)
  exponential.3 = f32[8,256]{1,0} exponential(add.2)
  zero.4 = f32[] constant(0)
  reduce.5 = f32[8]{0} reduce(exponential.3, zero.4), dimensions={1}, to_apply=add
  ROOT tuple.6 = (f32[8,256]{1,0}, f32[8]{0}) tuple(exponential.3, reduce.5)
}
"""


def snapshots(c) -> dict[str, str]:
    """`NNNN.<pipeline>.after_<pass>.before_<next>.txt` for each pass that changed the module."""
    out, counter = {}, 0
    changed = [r for r in c.records if r.changed]
    for i, r in enumerate(changed):
        after_next = changed[i + 1].name if i + 1 < len(changed) else "pipeline-end"
        out[f"{counter:04d}.{r.pipeline}.after_{r.name}.before_{after_next}.txt"] = r.after.to_text()
        counter += 1
    return out


def buffer_assignment(plan) -> tuple[str, str, str, int]:
    """XLA's buffer-assignment, live-range and memory-usage-report texts for hloscope's plan:
    a parameter, constant or output per allocation; the temporaries in one preallocated temp."""
    lines, value_id, allocations, total = ["BufferAssignment:"], 0, 0, 0
    temps = [b for b in plan.buffers if b.kind == "temporary"]
    for b in [b for b in plan.buffers if b.kind != "temporary"]:
        index = "{" + ",".join(map(str, b.index)) + "}"
        shape = b.instruction.shape if not b.index else b.instruction.shape.elements[b.index[0]]
        bare = re.sub(r"\{[\d,]*\}", "", str(shape))  # XLA prints an allocation's shape without its layout
        if b.kind == "parameter":
            tags = f"parameter {b.instruction.parameter_number}, shape |{bare}| at ShapeIndex {{}}"
        elif b.kind == "constant":
            tags = "constant"
        else:
            tags = f"output shape is |{bare}|, maybe-live-out"
        lines.append(f"allocation {allocations}: size {b.size}, {tags}:")
        lines.append(f" value: <{value_id} {b.name}{index if b.index else ''} @0> (size={b.size},offset=0): {shape}")
        allocations, value_id, total = allocations + 1, value_id + 1, total + b.size
    if temps:
        size = max(b.offset + b.size for b in temps) - min(b.offset for b in temps)
        lines.append(f"allocation {allocations}: size {size}, preallocated-temp:")
        base = min(b.offset for b in temps)
        for b in temps:
            lines.append(f" value: <{value_id} {b.name} @0> (size={b.size},offset={b.offset - base}): "
                         f"{b.instruction.shape}")
            value_id += 1
        total += size
    n = len(plan.schedule)
    live = [f"HloLiveRange (max {n}):", "  InstructionSequence:"]
    live += [f"    {i}:{name}" for i, name in enumerate(plan.schedule)]
    live.append("  BufferLiveRange:")
    for b in plan.buffers:
        end = n if b.kind in ("parameter", "output") else b.end
        live.append(f"    {b.name}{{{','.join(map(str, b.index))}}}:{b.start}-{end}")
    report = f"Memory Space: default (color=0)\nTotal bytes: {total} ({total / 1024:.1f}KiB)\n"
    return "\n".join(lines) + "\n", "\n".join(live) + "\n", report, total


def main() -> None:
    c = hloscope.compile(HLO, backend="gpu", ptxas=False).report
    OUT.mkdir(exist_ok=True)
    for old in OUT.iterdir():
        if old.name.startswith("module_"):
            old.unlink()
    optimized = f"{DEVICE}_gpu_after_optimizations"
    assignment, live, report, _ = buffer_assignment(c.memory_plan)
    thunks = "".join(
        f"{i:03d}: kKernel\tkernel={k.name}, profile_annotation={k.instruction}, launch dimensions=blocks: "
        f"{{{k.grid[0]}, {k.grid[1]}, {k.grid[2]}}}, threads/block: {{{k.block[0]}, {k.block[1]}, {k.block[2]}}}, "
        f"cluster_dim=nullopt\n" for i, k in enumerate(c.kernels))
    files = {"before_optimizations.txt": c.input_module.to_text(), **snapshots(c),
             f"{optimized}.txt": c.module.to_text(), f"{optimized}-buffer-assignment.txt": assignment,
             f"{optimized}-live-range.txt": live, f"{optimized}-memory-usage-report.txt": report,
             "ir-no-opt.ll": c.llvm_ir, "ir-with-opt.ll": c.optimized_llvm_ir, "ptx": c.ptx,
             "thunk_sequence.txt": thunks}
    for suffix, text in files.items():
        name = f"{PREFIX}{suffix}" if suffix != "ptx" else f"{PREFIX[:-1]}.ptx"
        (OUT / name).write_text(text if text.endswith("\n") else text + "\n")
    print(f"wrote {len(files)} files to {OUT}")


if __name__ == "__main__":
    main()
