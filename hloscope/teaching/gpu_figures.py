"""Figures for notebook 08 (GPU mapping), drawn as SVG so they read on a page without a
kernel: how a launch covers an array (grid, blocks, warps, threads) and a warp's reduction
tree (butterfly shuffles, then shared memory across warps)."""

from __future__ import annotations

import html

FONT = 'font-family="sans-serif" font-size="11"'
BLOCK_COLOURS = ("#ddf4ff", "#fff8c5", "#dafbe1", "#ffebe9")


def launch_svg(elements: int, block: int, warp: int = 32, shown_blocks: int = 4) -> str:
    """The first `shown_blocks` blocks of a launch over `elements`: each block a row of warps,
    each warp 32 threads; thread (blockIdx.x, threadIdx.x) computes element
    blockIdx.x * blockDim.x + threadIdx.x. The grid's size is written under it."""
    grid = -(-elements // block)
    warps = block // warp
    cell = max(2.0, min(6.0, 520 / block))
    width = int(block * cell) + 140
    rows = min(shown_blocks, grid)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{rows * 46 + 64}" {FONT}>']
    for b in range(rows):
        y = 20 + b * 46
        out.append(f'<text x="0" y="{y + 16}">block {b}</text>')
        for w in range(warps):
            x = 60 + w * warp * cell
            out.append(f'<rect x="{x:.1f}" y="{y}" width="{warp * cell:.1f}" height="24" '
                       f'fill="{BLOCK_COLOURS[b % len(BLOCK_COLOURS)]}" stroke="#57606a"/>')
            if warp * cell >= 40:
                out.append(f'<text x="{x + 3:.1f}" y="{y + 16}">warp {w}</text>')
        first = b * block
        out.append(f'<text x="60" y="{y + 38}" fill="#57606a">elements {first:,} to '
                   f'{min(first + block, elements) - 1:,}</text>')
    out.append(f'<text x="0" y="12" font-weight="600">{html.escape(f"<<<{grid:,} blocks, {block} threads>>>")}: '
               f'{warps} warps of {warp} per block, one element per thread</text>')
    if grid > rows:
        out.append(f'<text x="0" y="{rows * 46 + 40}">... {grid - rows:,} more blocks; the last has '
                   f'{elements - (grid - 1) * block} busy threads of {block}</text>')
    out.append("</svg>")
    return "".join(out)


def reduction_tree_svg(lanes: int = 8) -> str:
    """A butterfly reduction over `lanes` lanes (a warp has 32: five steps; drawn with 8:
    three). At step s each lane adds the value of the lane whose number differs in bit s
    (shfl.sync.bfly with offset 2^s); after log2(lanes) steps every lane holds the sum."""
    steps = lanes.bit_length() - 1
    dx, dy = 56, 58
    width, height = lanes * dx + 150, (steps + 1) * dy + 40
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" {FONT}>']

    def node(x: float, y: float, text: str) -> str:
        return (f'<circle cx="{x}" cy="{y}" r="14" fill="#ddf4ff" stroke="#0550ae"/>'
                f'<text x="{x}" y="{y + 4}" text-anchor="middle">{html.escape(text)}</text>')

    for step in range(steps + 1):
        y = 24 + step * dy
        label = "lanes' values" if step == 0 else f"shfl.bfly {1 << (step - 1)}"
        out.append(f'<text x="{lanes * dx + 10}" y="{y + 4}">{label}</text>')
        for lane in range(lanes):
            x = 30 + lane * dx
            span = 1 << step  # each lane now holds the sum of this many values
            start = lane - lane % span
            text = f"v{lane}" if step == 0 else (f"Σ{start}-{start + span - 1}" if span < lanes else "Σ all")
            if step:
                partner = lane ^ (1 << (step - 1))
                px = 30 + partner * dx
                out.append(f'<line x1="{x}" y1="{y - dy + 14}" x2="{x}" y2="{y - 14}" stroke="#57606a"/>'
                           f'<line x1="{px}" y1="{y - dy + 14}" x2="{x}" y2="{y - 14}" stroke="#cf222e"/>')
            out.append(node(x, y, text))
    out.append(f'<text x="0" y="{height - 8}">A warp of 32 lanes takes 5 such steps, in registers; then lane 0 of '
               f'each warp writes to shared memory, bar.sync, and one warp combines the partials.</text>')
    out.append("</svg>")
    return "".join(out)
