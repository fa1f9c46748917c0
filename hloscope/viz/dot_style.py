"""How graph nodes look: DOT quoting, labels, colours by opcode family and fusion kind.

Kept apart from `graph.py` (which decides *what* is drawn) so the palette lives in one
place; the same colours are used by the CSS highlight classes of the HTML export.
"""

from __future__ import annotations

from ..errors import HloscopeError
from ..ir.shape import ArrayShape

from ..ir.opcodes import OPCODES

# Fill colour per opcode family (OpInfo.kind), chosen to read well in light mode.
FAMILY_FILL = {
    "unary": "#eef4ff",
    "binary": "#eef4ff",
    "ternary": "#eef4ff",
    "leaf": "#f6f8fa",
    "data": "#eef8ee",
    "reduce": "#fde9d4",
    "other": "#fde9d4",  # dot, convolution: the heavy hitters
    "control": "#f3e8ff",
}
PARAMETER_FILL = "#fff4bf"
CONSTANT_FILL = "#eeeeee"
EXPENSIVE_FILL = "#ffe3e3"

# Fusion clusters: a pale background per kind, and a stronger border.
FUSION_FILL = {"kLoop": "#e6f2ff", "kInput": "#fff0e0", "kOutput": "#e8f7e8", "kCustom": "#f0f0f0"}
FUSION_BORDER = {"kLoop": "#4a90d9", "kInput": "#e08a1e", "kOutput": "#3a9d3a", "kCustom": "#888888"}

# Diff highlighting (added in the after-graph, removed in the before-graph).
HIGHLIGHT = {
    "added": {"fillcolor": "#c9f2c7", "color": "#1a7f37", "penwidth": "2.5"},
    "removed": {"fillcolor": "#ffd4d4", "color": "#cf222e", "penwidth": "2.5", "style": "rounded,filled,dashed"},
    "changed": {"fillcolor": "#ffe8a3", "color": "#9a6700", "penwidth": "2.5"},
}
REJECTED_EDGE = {"color": "#cf222e", "style": "dashed", "penwidth": "1.5", "constraint": "false", "arrowhead": "tee"}

MAX_TOOLTIP = 400


def quote(text: str) -> str:
    """A DOT double-quoted string (backslashes kept literal, quotes and newlines escaped)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def attrs(values: dict) -> str:
    """`[k="v", ...]` in the given order (dicts keep insertion order, so output is stable)."""
    return "[" + ", ".join(f"{k}={quote(str(v))}" for k, v in values.items()) + "]"


def short_shape(shape) -> str:
    """`f32[8,128]` without the layout (tuples element by element): labels stay narrow."""
    elements = getattr(shape, "elements", None)
    if elements is not None:
        return "(" + ", ".join(short_shape(e) for e in elements) + ")"
    return shape.short() if hasattr(shape, "short") else str(shape)


def _constant_text(inst) -> str:
    """The value of a scalar constant (`0.5`, `-inf`), else ''."""
    lit = inst.literal
    if lit is None or lit.elided or not hasattr(lit.value, "ndim") or lit.value.ndim != 0:
        return ""
    return str(lit.value.item())[:16]


def node_label(inst) -> str:
    """Opcode (with parameter number or scalar value), shape, then the instruction name."""
    head = inst.opcode
    if inst.opcode == "parameter":
        head = f"parameter {inst.parameter_number}"
    elif inst.opcode == "constant" and _constant_text(inst):
        head = f"constant {_constant_text(inst)}"
    elif inst.opcode == "fusion":
        head = f"fusion ({inst.attr('kind', '?')})"
    calls = inst.attr("to_apply") or inst.attr("body")
    lines = [head, short_shape(inst.shape), inst.name]
    if inst.opcode == "broadcast" and inst.operands:
        lines[0] = f"broadcast of {inst.operands[0]}"
    if calls and inst.opcode != "fusion":
        lines.append(f"calls {calls}")
    per_device = _per_device_shape(inst)
    if per_device:
        lines.insert(2, per_device)
    return "\n".join(lines)


def _per_device_shape(inst) -> str:
    """`per device f32[4,16]` for an array with a tiled sharding (the global shape is above it)."""
    text = inst.attrs.get("sharding")
    if text is None or not isinstance(inst.shape, ArrayShape):
        return ""
    from ..spmd.sharding import device_count_of, parse_sharding

    try:
        sharding = parse_sharding(str(text), inst.shape.dims, max(device_count_of(str(text)), 1))
        if sharding.is_replicated:
            return ""
        local = sharding.local_dims(inst.shape.dims)
    except HloscopeError:  # a sharding the partitioner does not read: the graph shows it as it is
        return ""
    return f"per device {inst.shape.dtype}[{','.join(map(str, local))}]"


def node_fill(inst) -> str:
    if inst.opcode == "parameter":
        return PARAMETER_FILL
    if inst.opcode == "constant":
        return CONSTANT_FILL
    if inst.opcode == "fusion":
        return FUSION_FILL.get(str(inst.attr("kind")), "#f0f0f0")
    info = OPCODES.get(inst.opcode)
    if info is not None and info.expensive:
        return EXPENSIVE_FILL
    return FAMILY_FILL.get(info.kind if info else "", "#ffffff")


def node_attrs(inst, node_id: str, *, is_root: bool, highlight: str | None, id_prefix: str) -> dict:
    """DOT attributes of one instruction's node (`id`/`class` end up on the SVG `<g>`)."""
    a = {
        "label": node_label(inst),
        "id": id_prefix + node_id,
        "class": f"hlo-node op-{inst.opcode}" + (f" hl-{highlight}" if highlight else ""),
        "fillcolor": node_fill(inst),
        "tooltip": _tooltip(inst),
    }
    if inst.opcode in ("parameter", "constant"):
        a["shape"] = "ellipse" if inst.opcode == "parameter" else "box"
        a["fontsize"] = "9"
    if inst.opcode == "fusion":
        a["shape"] = "box3d"
        a["color"] = FUSION_BORDER.get(str(inst.attr("kind")), "#888888")
    if is_root:
        a["penwidth"] = "2"
    if highlight:
        a.update(HIGHLIGHT[highlight])
    return a


def _tooltip(inst) -> str:
    text = str(inst).lstrip("%")
    return text if len(text) <= MAX_TOOLTIP else text[: MAX_TOOLTIP - 3] + "..."


def cluster_attrs(fusion, fused_name: str, id_prefix: str, highlight: str | None) -> dict:
    """Attributes of the `subgraph cluster_...` drawn for a fusion instruction."""
    kind = str(fusion.attr("kind", "?"))
    a = {
        "label": f"{fusion.name} ({kind})\n{fused_name}",
        "id": f"{id_prefix}{fusion.name}",
        "class": f"hlo-fusion kind-{kind}" + (f" hl-{highlight}" if highlight else ""),
        "style": "rounded,filled",
        "fillcolor": FUSION_FILL.get(kind, "#f0f0f0"),
        "color": FUSION_BORDER.get(kind, "#888888"),
        "penwidth": "1.5",
        "tooltip": _tooltip(fusion),
    }
    if highlight:
        a["color"] = HIGHLIGHT[highlight]["color"]
        a["penwidth"] = "3"
    return a
