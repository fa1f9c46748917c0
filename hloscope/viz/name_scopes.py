"""The model's own structure, read from the `op_name` metadata JAX writes on every instruction.

    scope_path("jit(train_step)/jvp(block)/attn/dot_general")   -> ("forward", "block", "attn")
    scope_path("jit(train_step)/transpose(jvp(block))/attn/mul") -> ("backward", "block", "attn")
    tree = scope_tree(module, computation)                       # who is in which scope, counts

The rules (what a learner sees as the boxes of a real model's graph):
- the last component is the primitive (`dot_general`), not a scope: it is dropped;
- the `jit(...)` root names the whole program: it is dropped too (a nested `jit(log_softmax)`
  names a function the model called, so it stays, as `log_softmax`);
- transforms are unwrapped to the name inside them: `vmap(f)`, `remat(f)`, `pjit(f)` -> `f`.
  Differentiation is kept as a phase, because the forward and the backward pass of `block`
  are far apart in the graph: a component with `transpose(...)` opens a `backward` scope, one
  with `jvp(...)` (and no transpose) a `forward` scope, unless the path is already in that
  phase. An empty name (`transpose(jvp())`, JAX's spelling for an anonymous function) leaves
  just the phase;
- XLA joins the names of instructions it merged with `;`: the scope is their common prefix;
- no metadata, or no scope in it (parameters are named `x`, `xs[3]`): the computation's top level,
  except a get-tuple-element, bitcast or copy a pass made without metadata: it sits with its
  operand (the element of a multi-output fusion belongs where the fusion is);
- a computation with scopes and more than MANY_PARAMETERS top-level parameters (a model's
  weights, optimizer state) gets them in one `(parameters)` scope, so they do not crowd out
  the first view.
A fusion's scope is the common prefix of its fused instructions' scopes (its own metadata
names just one of them), so a fusion of two layers' ops sits in their common parent; fused
instructions with no scope (constants, the program's top-level glue) do not pull it to the top.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ir.memo import per_value

Path = tuple[str, ...]
TOP: Path = ()
SEPARATOR = "/"
ROOTS = ("jit(", "pjit(")  # the program itself: not a scope
PHASES = {"transpose": "backward", "jvp": "forward"}
PARAMETERS: Path = ("(parameters)",)
MANY_PARAMETERS = 16  # more top-level parameters than this are grouped: a model's weights
FOLLOWERS = ("get-tuple-element", "bitcast", "copy")  # made by passes without metadata: sit with their operand
_UNWRAP_DEPTH = 16  # transforms nest a few levels; anything deeper is left as written


def split_components(op_name: str) -> list[str]:
    """`a/f(b/c)/d` -> ["a", "f(b/c)", "d"]: slashes inside parentheses do not split."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(op_name):
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == "/" and depth == 0:
            parts.append(op_name[start:i])
            start = i + 1
    parts.append(op_name[start:])
    return [p for p in parts if p]


def unwrap(component: str) -> tuple[str, set[str]]:
    """`transpose(jvp(block))` -> ("block", {"transpose", "jvp"}); a plain name is itself."""
    transforms: set[str] = set()
    for _ in range(_UNWRAP_DEPTH):
        open_at = component.find("(")
        if open_at <= 0 or not component.endswith(")") or not component[:open_at].isidentifier():
            break
        transforms.add(component[:open_at])
        component = component[open_at + 1 : -1]
    return component, transforms


def _phase(transforms: set[str]) -> str | None:
    if "transpose" in transforms:
        return PHASES["transpose"]
    return PHASES["jvp"] if "jvp" in transforms else None


def scope_path(op_name: str | None) -> Path:
    """The scope of one op_name (see the module docstring); () for none."""
    if not op_name:
        return TOP
    merged = _merged_names(op_name)
    if merged:
        return common_prefix(scope_path(part) for part in merged)
    components = split_components(op_name)[:-1]
    if components and components[0].startswith(ROOTS):
        components = components[1:]
    path: list[str] = []
    for component in components:
        name, transforms = unwrap(component)
        phase = _phase(transforms)
        if phase is not None and phase not in path:
            path.append(phase)
        if name:
            path.append(_clean(name))
    return tuple(path)


def _merged_names(op_name: str) -> list[str]:
    """The op_names XLA joined with ';' (each starts with the same root), or [] for one name."""
    parts = op_name.split(";")
    if len(parts) < 2:
        return []
    roots = {split_components(p)[0] if split_components(p) else "" for p in parts}
    return parts if len(roots) == 1 else []


def _clean(name: str) -> str:
    """A scope name that survives as a key through DOT and SVG: '/' splits keys, Graphviz
    doubles a backslash and reads '&...;' as an entity; look-alike characters stand in."""
    return name.replace(SEPARATOR, "\u2215").replace("\\", "\u29f5").replace("&", "\uff06")


def common_prefix(paths) -> Path:
    """The longest path every one of `paths` starts with (() for none)."""
    prefix: Path | None = None
    for path in paths:
        if prefix is None:
            prefix = path
            continue
        n = 0
        while n < min(len(prefix), len(path)) and prefix[n] == path[n]:
            n += 1
        prefix = prefix[:n]
        if not prefix:
            break
    return prefix or TOP


def scope_key(path: Path) -> str:
    """One string per scope, as shown and searched: `forward/block/attn`."""
    return SEPARATOR.join(path)


@dataclass
class Scope:
    """One scope of a computation: its own instructions (in order) and its child scopes."""

    path: Path
    members: list[str] = field(default_factory=list)
    children: list[Path] = field(default_factory=list)
    size: int = 0  # instructions in it and under it (a fusion counts once)
    fusions: int = 0  # fusion instructions in it and under it

    @property
    def key(self) -> str:
        return scope_key(self.path)

    @property
    def name(self) -> str:
        return self.path[-1] if self.path else "(top level)"


@dataclass
class ScopeTree:
    """Every instruction of one computation placed in a scope; scopes in first-seen order."""

    computation: str
    path_of: dict[str, Path]
    scopes: dict[Path, Scope]
    fusions_by_root: bool = False

    @property
    def has_scopes(self) -> bool:
        return len(self.scopes) > 1

    def ancestors(self, path: Path) -> list[Path]:
        """The scopes above `path`, outermost first (not the top level, not `path` itself)."""
        return [path[:i] for i in range(1, len(path))]

    def by_key(self, key: str) -> Scope | None:
        return self.scopes.get(tuple(key.split(SEPARATOR))) if key else self.scopes[TOP]


def instruction_scope(module, inst, fusions_by_root: bool = False) -> Path:
    """The scope of one instruction; a fusion's is the common prefix of its fused ones' (those
    that have a scope: a constant or a top-level broadcast fused in says nothing of where)."""
    if inst.opcode == "fusion" and not fusions_by_root:
        called = inst.attr("calls")
        if called and module.has_computation(called):
            fused = (i for i in module.computation(called) if i.opcode != "parameter")
            scoped = [p for i in fused if (p := scope_path(_op_name(i)))]
            if scoped:
                return common_prefix(scoped)
    return scope_path(_op_name(inst))


def _op_name(inst) -> str | None:
    return inst.metadata.op_name if inst.metadata is not None else None


@per_value
def scope_tree(module, comp, fusions_by_root: bool = False) -> ScopeTree:
    """The scopes of computation `comp` of `module` (cached while the module lives).
    fusions_by_root: place each fusion by its own op_name (its root's), not by the common
    scope of what it fused: the fallback when fusions across scopes crowd the top level."""
    scopes: dict[Path, Scope] = {TOP: Scope(TOP)}
    path_of: dict[str, Path] = {}
    for inst in comp:
        path = instruction_scope(module, inst, fusions_by_root)
        if not path and inst.metadata is None and inst.opcode in FOLLOWERS and inst.operands:
            path = path_of.get(inst.operands[0], TOP)
        path_of[inst.name] = path
        _add(scopes, path).members.append(inst.name)
        for i in range(len(path) + 1):
            s = scopes[path[:i]]
            s.size += 1
            s.fusions += inst.opcode == "fusion"
    if len(scopes) > 1:
        _group_parameters(comp, scopes, path_of)
    return ScopeTree(comp.name, path_of, scopes, fusions_by_root)


def _group_parameters(comp, scopes: dict[Path, Scope], path_of: dict[str, Path]) -> None:
    """Many top-level parameters (a model's weights) go into one PARAMETERS scope."""
    top = scopes[TOP]
    params = [n for n in top.members if comp[n].opcode == "parameter"]
    if len(params) <= MANY_PARAMETERS:
        return
    group = scopes[PARAMETERS] = Scope(PARAMETERS, members=params, size=len(params))
    grouped = set(params)
    top.members = [n for n in top.members if n not in grouped]
    top.children.insert(0, group.path)
    path_of.update(dict.fromkeys(params, PARAMETERS))


def _add(scopes: dict[Path, Scope], path: Path) -> Scope:
    """The scope at `path`, made (with its missing parents) on first sight."""
    scope = scopes.get(path)
    if scope is None:
        parent = _add(scopes, path[:-1])
        scope = scopes[path] = Scope(path)
        parent.children.append(path)
    return scope
