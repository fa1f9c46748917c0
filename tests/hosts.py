"""Other hosts, on this machine: the CPUs the numerically sensitive tests also run as.

A float result depends on the CPU: the vector width sets how many partial sums a reduction
keeps, and FMA whether a product is rounded before it is added. A test that holds on one of
them only would stop every submission made on another, so the tests marked `hosts` run once
as this machine and once as each CPU below that it can run code for, with every program
(and the library it calls) compiled for that CPU (jit.standing_in_for_host).

    generic   x86-64: SSE2, 4 floats a vector, no FMA (any x86-64 machine)
    avx2      x86-64-v3: AVX2 and FMA, 8 floats (a laptop, most cloud machines)
    avx512    x86-64-v4 with full-width vectors: 16 floats (AMD Zen 4 and 5, Intel Ice Lake
              server and later)

On an ARM host, `generic` is ARMv8 with NEON. The terminal summary lists which ran.
"""

from __future__ import annotations

import platform

import llvmlite.binding as llvm

X86 = {
    "generic": ("x86-64", "", ()),
    "avx2": ("x86-64-v3", "", ("avx2", "fma", "bmi2", "f16c")),
    "avx512": ("x86-64-v4", "-prefer-256-bit", ("avx2", "fma", "avx512f", "avx512bw", "avx512dq", "avx512vl",
                                                "avx512cd")),
}
ARM = {"generic": ("generic", "+neon", ())}


def _host_features() -> set[str]:
    llvm.initialize_native_target()
    return {f[1:] for f in llvm.get_host_cpu_features().flatten().split(",") if f.startswith("+")}


def stand_ins() -> dict[str, tuple[str, str]]:
    """name -> (LLVM cpu, features) of every CPU above that this machine can run code for."""
    table = X86 if platform.machine().lower() in ("x86_64", "amd64") else ARM
    have = _host_features()
    return {name: (cpu, features) for name, (cpu, features, needs) in table.items() if set(needs) <= have}


def not_runnable() -> list[str]:
    """The CPUs above that this machine cannot run code for (named in the summary)."""
    table = X86 if platform.machine().lower() in ("x86_64", "amd64") else ARM
    return [name for name in table if name not in stand_ins()]
