"""XLA's SPMD partitioner next to hloscope's, on the same program: which collectives each
inserted, over which device groups, and where they differ.

    c = hloscope.xla.capture(jitted_on_a_mesh, *args)     # a jax function with shardings, on N devices
    cmp = hloscope.xla.compare_partitioning(c)
    cmp.differences()                                      # [] when both insert the same collectives

hloscope partitions the module XLA's own partitioner was given: the module after Shardy's
export to GSPMD shardings (`shardy-xla`), or XLA's input module when it has no Shardy step.
XLA's side is its module right after `spmd-partitioning`, before later passes combine or move
collectives.
"""

from __future__ import annotations

import html
from collections import Counter
from dataclasses import dataclass

from ..compilation.record import Compilation
from ..errors import HloscopeError
from ..ir.module import HloModule
from ..ir.opcodes import OPCODES
from ..ir.replica_groups import ReplicaGroups
from ..spmd import partition

Key = tuple[str, tuple[tuple[int, ...], ...]]  # (opcode, its device groups)


@dataclass
class PartitionComparison:
    ours: HloModule
    xla: HloModule
    log: object
    counts: dict[Key, tuple[int, int]]  # (hloscope's, XLA's)

    def differences(self) -> list[str]:
        out = []
        for (opcode, groups), (ours, xla) in sorted(self.counts.items()):
            if ours != xla:
                out.append(f"{opcode} over {_text(groups)}: hloscope {ours}, XLA {xla}")
        return out

    def _repr_html_(self) -> str:
        rows = "".join(f"<tr><td>{html.escape(op)}</td><td><code>{html.escape(_text(g))}</code></td><td>{ours}</td>"
                       f"<td>{xla}</td><td>{'same' if ours == xla else 'differs'}</td></tr>"
                       for (op, g), (ours, xla) in sorted(self.counts.items()))
        verdict = ("the same collectives over the same groups" if not self.differences()
                   else "; ".join(self.differences()))
        return ("<div class='hloscope'><h4>partitioned by hloscope and by XLA</h4>"
                f"<p>{html.escape(verdict)}</p><table class='hs-table'><thead><tr><th>collective</th><th>groups</th>"
                "<th>hloscope</th><th>XLA</th><th></th></tr></thead><tbody>" + rows + "</tbody></table></div>")


def _text(groups) -> str:
    return "{" + ",".join("{" + ",".join(map(str, g)) + "}" for g in groups) + "}"


def _collectives(module: HloModule) -> Counter:
    found: Counter = Counter()
    for _, inst in module.all_instructions():
        row = OPCODES.get(inst.opcode)
        if row is None or row.kind != "collective" or inst.opcode.endswith("-done"):
            continue
        groups = inst.attrs.get("replica_groups")
        listed = tuple(sorted(groups.device_groups())) if isinstance(groups, ReplicaGroups) else ()
        found[(inst.opcode.removesuffix("-start"), listed)] += 1
    return found


def compare_partitioning(record: Compilation) -> PartitionComparison:
    """hloscope's partition of the module XLA partitioned, next to XLA's (see the module docstring)."""
    steps = {r.name: r for r in record.records}
    given = steps["shardy-xla"].after if "shardy-xla" in steps else record.input_module
    if "spmd-partitioning" not in steps or given is None:
        raise HloscopeError(f"{record.title}: no spmd-partitioning step in this record (was the program sharded "
                            "over several devices, and dumped with --xla_dump_hlo_pass_re=.*?)")
    xla = steps["spmd-partitioning"].after
    ours, log = partition(given)
    mine, theirs = _collectives(ours), _collectives(xla)
    counts = {key: (mine.get(key, 0), theirs.get(key, 0)) for key in set(mine) | set(theirs)}
    return PartitionComparison(ours, xla, log, counts)
