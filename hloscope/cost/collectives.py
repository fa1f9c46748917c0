"""What a collective costs: the bytes each device sends, and the time at a link's bandwidth.

The model is the ring algorithm NCCL and XLA's own CPU collectives use for large messages, the
textbook one: in a group of n devices each holding S bytes,

    all-reduce        2 (n-1)/n * S   sent per device  (a reduce-scatter, then an all-gather)
    reduce-scatter      (n-1)/n * S   (S the whole input; each keeps S/n)
    all-gather          (n-1)   * S   (S the piece each holds; each ends with n S)
    all-to-all          (n-1)/n * S   (each keeps one piece of n)
    collective-permute            S   (one send, to its target)
    collective-broadcast          S   (S the root's value, forwarded along the ring)

and the time is bytes / link bandwidth, plus a latency per step (n-1 steps for a ring, 2 (n-1)
for an all-reduce). Interconnect bandwidths are per direction, per device, the vendors' figures.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..ir.instruction import Instruction
from ..ir.shape import ArrayShape, TupleShape


@dataclass(frozen=True)
class Interconnect:
    name: str
    bandwidth: float  # bytes/s per direction, per device
    latency: float  # seconds per ring step

    def describe(self) -> str:
        return f"{self.name}: {self.bandwidth / 1e9:,.0f} GB/s per direction, {self.latency * 1e6:.0f} us per step"


LINKS = {
    "H100 NVLink": Interconnect("H100 NVLink (4th gen, 18 links)", 450e9, 5e-6),
    "A100 NVLink": Interconnect("A100 NVLink (3rd gen, 12 links)", 300e9, 5e-6),
    "PCIe 5 x16": Interconnect("PCIe 5.0 x16", 64e9, 10e-6),
    "TPU v5e ICI": Interconnect("TPU v5e ICI (4 links)", 200e9, 3e-6),
}


def memory_link(bandwidth: float) -> Interconnect:
    """The simulation's own link: devices are threads of one process, so a collective is a
    memory copy at this machine's bandwidth."""
    return Interconnect("this machine's memory (the simulation)", bandwidth, 1e-6)


def simulation_link() -> Interconnect:
    """memory_link at this CPU's write bandwidth (measured once per machine, then cached)."""
    from .roofline import cpu_peaks

    peaks = cpu_peaks()
    return memory_link(peaks.write_bandwidth or peaks.bandwidth)


@dataclass(frozen=True)
class CollectiveCost:
    instruction: str
    opcode: str
    group_size: int
    groups: int
    payload: int  # bytes of the operand one device holds
    sent: int  # bytes one device sends

    def seconds(self, link: Interconnect) -> float:
        steps = 0 if self.group_size <= 1 else (2 * (self.group_size - 1) if self.opcode.startswith("all-reduce")
                                                else self.group_size - 1)
        return self.sent / link.bandwidth + steps * link.latency


def _bytes(shape) -> int:
    if isinstance(shape, TupleShape):
        return sum(_bytes(s) for s in shape.elements)
    if isinstance(shape, ArrayShape):
        return shape.byte_size
    return 0


def collective_cost(inst: Instruction, operand_shapes: list, group_size: int, groups: int) -> CollectiveCost:
    """The ring model's bytes for one collective (see the module docstring)."""
    payload = sum(_bytes(s) for s in operand_shapes)
    n = max(group_size, 1)
    op = inst.opcode.removesuffix("-start")
    if op == "all-reduce":
        sent = 2 * (n - 1) * payload // n
    elif op in ("reduce-scatter", "all-to-all"):
        sent = (n - 1) * payload // n
    elif op == "all-gather":
        sent = (n - 1) * payload
    else:  # collective-permute, collective-broadcast
        sent = payload
    return CollectiveCost(inst.name, inst.opcode, group_size, groups, payload, sent)
