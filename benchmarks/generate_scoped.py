"""A synthetic training step of any size whose `op_name` metadata nests like a real model's.

`make_scoped_module(n)` writes a module of exactly `n` instructions shaped like what JAX
writes for `value_and_grad` of a stack of transformer layers followed by an optimizer:

    jit(train_step)/jvp(model)/layer_3/attn/softmax/exp          forward
    jit(train_step)/transpose(jvp(model))/layer_3/mlp/fc/mul     backward
    jit(train_step)/adam/sqrt                                    the update

Each layer has attention (qkv, scores, softmax, out) and an MLP (fc, gelu, proj) as named
scopes; every value feeds the next two and residual edges skip a dozen steps, so the graph has
long edges between scopes as a real model does. Elementwise ops on one shape keep it valid.

    from generate_scoped import make_scoped_module     # from a script in benchmarks/
"""

from __future__ import annotations

SHAPE = "f32[16,64]{1,0}"
SUBLAYERS = (("attn", ("qkv", "scores", "softmax", "out")), ("mlp", ("fc", "gelu", "proj")), ("ln", ("norm",)))
OPS = ("multiply", "add", "tanh", "subtract", "exponential", "maximum")
RESIDUAL = 13  # every fifth binary op also reads the value this many steps back
PER_SCOPE = 6  # instructions per innermost scope
PER_LAYER = PER_SCOPE * sum(len(parts) for _, parts in SUBLAYERS)


def _scopes(layers: int) -> list[str]:
    """The innermost scope of every step, in program order: forward, backward, update."""
    inner = [f"layer_{i}/{sub}/{part}" for i in range(layers) for sub, parts in SUBLAYERS for part in parts]
    forward = [f"jvp(model)/{s}" for s in inner]
    backward = [f"transpose(jvp(model))/{s}" for s in reversed(inner)]
    return forward + backward + ["adam"]


def make_scoped_module(n_instructions: int) -> str:
    """HLO text of a module with exactly `n_instructions` instructions (at least 16)."""
    if n_instructions < 16:
        raise ValueError("make_scoped_module needs at least 16 instructions")
    layers = max(1, n_instructions // (2 * PER_LAYER))
    scopes = _scopes(layers)
    lines = [f'  %{p} = {SHAPE} parameter({i}), metadata={{op_name="{p}"}}' for i, p in enumerate(("x", "w"))]
    values = ["x", "w"]
    for i in range(2, n_instructions):
        scope = scopes[min((i - 2) // PER_SCOPE, len(scopes) - 1)]
        op = OPS[i % len(OPS)]
        operands = [values[-1]]
        if op not in ("tanh", "exponential"):
            operands.append(values[-RESIDUAL] if len(values) > RESIDUAL and i % 5 == 0 else values[-2])
        name = f"{op}.{i}"
        root = "ROOT " if i == n_instructions - 1 else ""
        args = ", ".join(f"%{o}" for o in operands)
        meta = f'metadata={{op_name="jit(train_step)/{scope}/{op}"}}'
        lines.append(f"  {root}%{name} = {SHAPE} {op}({args}), {meta}")
        values.append(name)
    head = f"HloModule scoped_train_step\n\nENTRY %train_step (x: {SHAPE}, w: {SHAPE}) -> {SHAPE} {{\n"
    return head + "\n".join(lines) + "\n}\n"
