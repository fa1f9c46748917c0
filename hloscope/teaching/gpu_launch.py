"""The exercise check of notebook 08, "GPU mapping": predict a kernel's launch (blocks in the
grid, threads per block) before reading it off the compiled kernel."""

from __future__ import annotations

from typing import Any

from .exercises import Wrong, exercise


def check_launch(label: str, kernel: Any, answer: Any, hint: str) -> None:
    """`answer` = (blocks, threads) for `kernel` (a GPU report's kernel: .grid, .block)."""
    blocks, threads = kernel.grid[0], kernel.block[0]

    def rule(got: Any) -> bool:
        if not isinstance(got, (tuple, list)) or len(got) != 2:
            raise Wrong("answer with a pair (blocks, threads per block)")
        got_blocks, got_threads = got
        if got_threads != threads:
            raise Wrong("the threads per block are not right")
        if got_blocks != blocks:
            if got_blocks == blocks - 1:
                raise Wrong("one block short: the last few elements get no thread (round up)")
            raise Wrong("the threads per block are right, the number of blocks is not")
        return True

    exercise(f"{label}: the launch", answer, rule, hint=hint)

