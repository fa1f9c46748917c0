"""Small HLO modules written inline by the backend and GPU tests."""


def module(body: str, computations: str = "") -> str:
    """An HLO module whose ENTRY is `body` (instruction lines; the last one is the ROOT)."""
    lines = [line.strip() for line in body.strip().splitlines() if line.strip()]
    lines[-1] = "ROOT " + lines[-1]
    return f"HloModule test\n\n{computations}\nENTRY main {{\n  " + "\n  ".join(lines) + "\n}\n"


def reducer(name: str, op: str, dtype: str) -> str:
    """A scalar computation `name(a, b) = op(a, b)`: the to_apply of a reduce."""
    return (f"{name} {{\n  a = {dtype}[] parameter(0)\n  b = {dtype}[] parameter(1)\n"
            f"  ROOT c = {dtype}[] {op}(a, b)\n}}\n")


def reduce_text(dtype: str, dims, reduce_dims, op: str = "add", init: str = "0") -> str:
    """A module reducing a `dtype` parameter of `dims` over `reduce_dims` by `op` from `init`."""
    out = [d for i, d in enumerate(dims) if i not in reduce_dims]
    shape = lambda ds: f"{dtype}[{','.join(map(str, ds))}]"  # noqa: E731
    return module(f"""
        p = {shape(dims)} parameter(0)
        z = {dtype}[] constant({init})
        r = {shape(out)} reduce(p, z), dimensions={{{','.join(map(str, reduce_dims))}}}, to_apply=red
    """, reducer("red", op, dtype))


def arg_reducer(name: str, direction: str) -> str:
    """(value, index) pairs keeping the value that compares `direction` (GT: argmax, LT:
    argmin), the lower index on a tie: the to_apply of a variadic reduce."""
    return f"""
{name} {{
  v0 = f32[] parameter(0)
  i0 = s32[] parameter(1)
  v1 = f32[] parameter(2)
  i1 = s32[] parameter(3)
  better = pred[] compare(v0, v1), direction={direction}
  eq = pred[] compare(v0, v1), direction=EQ
  lt = pred[] compare(i0, i1), direction=LT
  tie = pred[] and(eq, lt)
  keep = pred[] or(better, tie)
  v = f32[] select(keep, v0, v1)
  i = s32[] select(keep, i0, i1)
  ROOT t = (f32[], s32[]) tuple(v, i)
}}
"""
