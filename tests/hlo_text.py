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
