"""One LLVM module split into parts that LLVM optimizes and compiles on several cores.

LLVM's -O pipeline and code generator run one module on one thread, and they are most of a
compile (a GPT-2 training step: ~2.5 s of ~3.5 s). XLA:CPU splits its module for the same
reason (`xla_cpu_parallel_codegen_split_count`). The kernels hloscope emits are independent
functions with external linkage, so a module splits along them:

    part k = the header, every declaration, global and internal helper (the math functions
             are `internal alwaysinline`: each part inlines its own copy), the kernels
             assigned to part k, and a `declare` for every kernel another part defines.

Kernels go to parts costliest first, each to the part with the least cost so far, so the
parts take about the same time. A kernel's cost is its lines and those of the helpers it
inlines when it has a loop (LLVM vectorizes, unrolls and strength-reduces loops: most of its
time), a fifth of its lines when it is straight-line code (the entry function's stores and
calls). Measured alone on softmax's kernels: 6-16 ms for each loop, 3.5 ms for the entry's 53
lines; counting lines put its three loops in one part and the entry in the other (LLVM's
time for the module 42 -> 38 ms, medians of interleaved runs).

Kernels with the same body under other names (a model's repeated layers) go to the same
part, where LLVM's MergeFunctions keeps one body of them (llvm_child.py); a part's cost
counts each body once. The parts' object files are linked together when loaded (the entry
calls kernels by name, and the linker finds them in whichever part defines them).

The text is what llvmlite's IR builder prints: a `define` line ends in `{`, its body ends with
a line holding only `}`, and nothing else starts with `define`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

# Below this many lines a module is compiled whole: the gain would not pay for a second
# parse of the shared declarations and a second object file. Measured on 2 idle cores
# (parse to executable, 600 -> 200): softmax 85 -> 78 ms, layernorm 84 -> 76 ms, the MLP
# 70 -> 54 ms; a one-kernel module stays whole either way.
MIN_LINES_TO_SPLIT = 200
SEPARATOR = "; ---- hloscope: LLVM module part {k} of {n} ----"
_SEPARATOR = re.compile(r"^; ---- hloscope: LLVM module part \d+ of \d+ ----$", re.M)
_LOCAL_LINKAGE = re.compile(r"^define (internal|private|weak_odr) ")  # weak_odr: a vector form (mathlib/variants.py)
_DEFINED = re.compile(r'@"([^"]+)"\(|@([-\w.$]+)\(')
_LOCAL_NAME = re.compile(r'%"[^"]*"|%[-\w.$]+|![0-9]+')  # values, and metadata (each loop's own ID)
STRAIGHT_LINE_WEIGHT = 0.2  # a line without a loop around it, against a line in a loop


@dataclass
class _Function:
    header: str  # the `define ...` line, up to its `{`
    body: list[str]  # its lines, the closing `}` included

    @property
    def local(self) -> bool:
        return bool(_LOCAL_LINKAGE.match(self.header))

    def text(self) -> str:
        return "\n".join([self.header, *self.body])

    def shape(self) -> str:
        """The function with its own name, its local value names and its metadata numbers left out: equal for
        functions with the same body (what MergeFunctions would merge, and a bit more)."""
        signature_and_body = self.text().split("(", 1)[1]
        return _LOCAL_NAME.sub("%", signature_and_body)

    def has_loop(self) -> bool:
        return any(" = phi " in line for line in self.body)

    def called(self) -> set[str]:
        return {a or b for line in self.body for a, b in _DEFINED.findall(line)}

    def declaration(self) -> str:
        """`declare` with the same signature (parameter attributes and names kept)."""
        head = self.header.rstrip()
        head = head[:-1].rstrip() if head.endswith("{") else head
        return "declare" + head[len("define"):]


def read_module(ir_text: str) -> tuple[list[str], list[_Function]]:
    """The module's top-level lines (header, declarations, globals) and its functions."""
    top: list[str] = []
    functions: list[_Function] = []
    lines = iter(ir_text.split("\n"))
    for line in lines:
        if not line.startswith("define "):
            top.append(line)
            continue
        header, body = line, []
        if not header.rstrip().endswith("{"):  # llvmlite puts the brace on the next line
            header = f"{header}\n{next(lines)}"
        for inner in lines:
            body.append(inner)
            if inner == "}":
                break
        functions.append(_Function(header, body))
    return top, functions


def split_module(ir_text: str, parts: int, min_lines: int = MIN_LINES_TO_SPLIT) -> list[str]:
    """`ir_text` as at most `parts` module texts (see the module docstring); one part, the
    text unchanged, when it is small or has fewer than two kernels."""
    if parts < 2 or ir_text.count("\n") < min_lines:
        return [ir_text]
    top, functions = read_module(ir_text)
    kernels = [f for f in functions if not f.local]
    helpers = [f for f in functions if f.local]
    if len(kernels) < 2:
        return [ir_text]
    groups: dict[str, list[_Function]] = {}
    for f in kernels:
        groups.setdefault(f.shape(), []).append(f)
    costs = _llvm_costs(helpers)
    cost = {id(g[0]): costs(g[0]) for g in groups.values()}
    bins: list[list[_Function]] = [[] for _ in range(min(parts, len(groups)))]
    load = [0.0] * len(bins)
    for group in sorted(groups.values(), key=lambda g: -cost[id(g[0])]):
        k = load.index(min(load))
        bins[k].extend(group)
        load[k] += cost[id(group[0])]
    header = "\n".join(line for line in top if line.strip())
    texts = []
    for mine in bins:
        ids = {id(f) for f in mine}
        others = [f.declaration() for f in kernels if id(f) not in ids]
        defined = [f.text() for f in functions if id(f) in ids or f.local]
        texts.append("\n".join([header, *others, *defined]) + "\n")
    return texts


def _llvm_costs(helpers: list[_Function]) -> Callable[[_Function], float]:
    """A kernel's share of LLVM's time, in weighted lines (see the module docstring)."""
    by_name = {_defined_name(f): f for f in helpers}

    def inlined(f: _Function, seen: set[str]) -> int:
        lines = 0
        for name in f.called() - seen:
            if name in by_name:
                seen.add(name)
                lines += len(by_name[name].body) + inlined(by_name[name], seen)
        return lines

    def cost(f: _Function) -> float:
        lines = len(f.body) + inlined(f, set())
        return lines if f.has_loop() else STRAIGHT_LINE_WEIGHT * lines

    return cost


def kernel_modules(ir_text: str) -> dict[str, tuple[str, int]]:
    """For each kernel: a module that defines only it (with the internal helpers it may call
    and a `declare` for every other kernel), what LLVM would do for that kernel alone, and
    the line count of its own function."""
    top, functions = read_module(ir_text)
    header = "\n".join(line for line in top if line.strip())
    kernels = [f for f in functions if not f.local]
    helpers = [f.text() for f in functions if f.local]
    declarations = {id(f): f.declaration() for f in kernels}
    return {_defined_name(mine): ("\n".join([header, *(declarations[id(f)] for f in kernels if f is not mine),
                                             mine.text(), *helpers]) + "\n", len(mine.body) + 1)
            for mine in kernels}


def kernel_module(ir_text: str, name: str) -> str:
    """The module of kernel `name` alone (see kernel_modules)."""
    modules = kernel_modules(ir_text)
    if name not in modules:
        raise KeyError(f"no kernel named {name!r} in the LLVM module")
    return modules[name][0]


def _defined_name(f: _Function) -> str:
    match = _DEFINED.search(f.header)
    return (match.group(1) or match.group(2)) if match else ""


def join_parts(texts: list[str]) -> str:
    """The parts as one text to read (the IR view), each under a separator line."""
    if len(texts) == 1:
        return texts[0]
    n = len(texts)
    return "\n".join(f"{SEPARATOR.format(k=k + 1, n=n)}\n{t}" for k, t in enumerate(texts))


def parts_of(joined: str) -> list[str]:
    """The module texts `join_parts` joined (one text if it joined one)."""
    pieces = [p.strip("\n") + "\n" for p in _SEPARATOR.split(joined) if p.strip()]
    return pieces or [joined]
