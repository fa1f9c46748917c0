"""PTX with a short note after each line that says what it does (notebook 08), for reading a
kernel's PTX the first time. The notes come from a table of patterns, first match wins."""

from __future__ import annotations

import re

NOTES: list[tuple[str, str]] = [
    (r"^\.visible \.entry", "the kernel: an entry point the host can launch"),
    (r"\.param \.u64", "an argument: a pointer to one buffer"),
    (r"^\.reg ", "declares virtual registers (ptxas picks real ones)"),
    (r"ld\.param", "reads a kernel argument"),
    (r"cvta\.to\.global", "generic pointer -> global-memory pointer"),
    (r"%tid\.x", "threadIdx.x: this thread's number in its block"),
    (r"%ntid\.x", "blockDim.x: threads per block"),
    (r"%ctaid\.x", "blockIdx.x: this block's number in the grid"),
    (r"%nctaid\.x", "gridDim.x: blocks in the grid"),
    (r"mad\.lo", "index = blockIdx.x * blockDim.x + threadIdx.x"),
    (r"mul\.wide", "32 x 32 -> 64-bit multiply: blockIdx.x * blockDim.x, or the grid's stride"),
    (r"^shl\.b64 .*, 2;", "x 4: an element index becomes a byte offset"),
    (r"^add\.s64", "64-bit integer add: an index, or base + offset = an address"),
    (r"^cvt\.u64\.u32", "widen a 32-bit number to 64 bits"),
    (r"^setp", "compare; the result is a predicate register %p"),
    (r"^@%p\d+ bra", "branch if the predicate holds: past the loop, or back to its top"),
    (r"^bra", "jump (the loop's back edge)"),
    (r"ld\.global\.nc", "load from global memory via the read-only cache (coalesced: neighbouring threads read neighbouring floats)"),
    (r"ld\.global", "load from global memory (coalesced: neighbouring threads read neighbouring floats)"),
    (r"st\.global", "store to global memory"),
    (r"ld\.shared|st\.shared", "shared memory: visible to the whole block"),
    (r"shfl\.sync", "exchange a register with another lane of the warp"),
    (r"bar\.sync", "barrier: every thread of the block waits here"),
    (r"fma\.rn\.f32", "fused multiply-add (a step of the polynomial)"),
    (r"div\.rn\.f32|rcp\.", "division (of the rational tanh approximation)"),
    (r"^(mul|add|sub)\.f32|^(mul|add|sub)\.rn\.f32", "float arithmetic on registers"),
    (r"^(min|max)\.f32|abs\.f32|copysign", "clamp / sign handling of the approximation"),
    (r"^selp", "select by a predicate (the clamp and the special cases)"),
    (r"^mov\.b32 .*0f", "a float constant (hex bits)"),
    (r"^ret", "this thread is done"),
    (r"^\$L__|^\$L", "a label: a basic block of the LLVM IR"),
]


def note_for(line: str) -> str:
    text = line.strip()
    return next((note for pattern, note in NOTES if re.search(pattern, text)), "")


def annotate_ptx(ptx: str, width: int = 56) -> str:
    """`ptx` with `// note` after each line that has one; comments and blank lines dropped."""
    out = []
    for line in ptx.splitlines():
        if not line.strip() or line.strip().startswith("//"):
            continue
        note = note_for(line)
        out.append(f"{line.rstrip():{width}} // {note}" if note else line.rstrip())
    return "\n".join(out)
