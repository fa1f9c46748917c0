"""How many threads of a kernel one SM keeps resident, and which limit decides it (notebook 08):
registers per thread, shared memory per block, the block-count cap, the thread cap. The
numbers are an A100's (sm_80), as in NVIDIA's occupancy calculator."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class SM:
    name: str = "A100 (sm_80)"
    registers: int = 65536
    shared_bytes: int = 164 * 1024
    max_threads: int = 2048
    max_blocks: int = 32
    register_granule: int = 256  # registers are allocated per warp in chunks of 256


A100 = SM()


def resident_threads(block: int, registers: int, shared_bytes: int, sm: SM = A100) -> tuple[int, str]:
    """(threads resident per SM, the limit that decides it) for blocks of `block` threads."""
    warps = -(-block // 32)
    per_warp = -(-max(registers, 1) * 32 // sm.register_granule) * sm.register_granule
    limits = {  # blocks per SM by each limit; on a tie the first is named
        "threads per SM": sm.max_threads // block,
        "blocks per SM": sm.max_blocks,
        "registers": sm.registers // (per_warp * warps),
        "shared memory": sm.shared_bytes // shared_bytes if shared_bytes else 1 << 30,
    }
    limiter = min(limits, key=lambda k: limits[k])
    return limits[limiter] * block, limiter
