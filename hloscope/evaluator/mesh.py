"""Many devices in one process: a partitioned (or replicated) module evaluated as N devices,
one thread each, meeting at every collective.

    outputs = hloscope.evaluate(module, shards)     # shards: N argument tuples -> N results

Device d is (replica d // P, partition d % P) of a module for R replicas and P partitions
(the header's replica_count and num_partitions). Each device runs its own Evaluator; a
collective deposits the device's operand at the Rendezvous and waits for the others of its
group, then computes its result from theirs, as XLA's runtime would:

- which devices form a group follows XLA's group modes (collective_op_group_mode.h): without
  a channel_id the ids in replica_groups are replicas (each partition on its own); with one,
  partitions (each replica on its own); with use_global_device_ids=true, global device ids;
  with it false, replicas, each with all its partitions;
- all-reduce folds the group's operands in group order with its to_apply; all-gather
  concatenates them; reduce-scatter reduces, then keeps this device's piece; all-to-all
  sends piece j to the group's j-th device; collective-permute delivers the source's value
  to each target (zeros where none arrives); collective-broadcast sends the first device's.

A device that fails stops the others at their next meeting (a program whose devices do not
reach the same collectives is named after a wait, rather than hanging the kernel).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Sequence

import numpy as np

from ..errors import EvaluationError
from ..ir.instruction import Instruction
from ..ir.replica_groups import ReplicaGroups, SourceTargetPairs

if TYPE_CHECKING:
    from ..ir.module import HloModule
    from .core import Evaluator

WAIT_SECONDS = 120.0  # a device that waits this long at a collective gives up, naming it


def device_count(module: HloModule) -> tuple[int, int]:
    """(replicas, partitions) the module is written for (1, 1 when it does not say)."""
    def number(key: str) -> int:
        value = module.attrs.get(key)
        return int(str(value)) if value is not None and str(value).isdigit() else 1

    return number("replica_count"), number("num_partitions")


class DeviceFailed(EvaluationError):
    """Another device of the run failed; this one stops at its next collective."""


class Rendezvous:
    """Where the devices of one run exchange values: each collective execution is one
    meeting, keyed by (instruction, how many times this device ran it, group)."""

    def __init__(self, devices: int):
        self.devices = devices
        self._lock = threading.Condition()
        self._deposits: dict[tuple, dict[int, Any]] = {}
        self._reads: dict[tuple, int] = {}
        self.failure: BaseException | None = None

    def fail(self, error: BaseException) -> None:
        with self._lock:
            if self.failure is None:
                self.failure = error
            self._lock.notify_all()

    def exchange(self, key: tuple, group: tuple[int, ...], me: int, value: Any, what: str) -> list[Any]:
        """Deposit `value` for `me`; return every group member's value, in group order."""
        with self._lock:
            slot = self._deposits.setdefault(key, {})
            slot[me] = value
            self._lock.notify_all()
            ready = self._lock.wait_for(lambda: self.failure is not None or len(slot) == len(group), WAIT_SECONDS)
            if self.failure is not None:
                raise DeviceFailed(f"device {me} stopped at {what}: another device failed ({self.failure})")
            if not ready:
                missing = sorted(set(group) - set(slot))
                error = EvaluationError(f"device {me} waited {WAIT_SECONDS:.0f} s at {what} for devices {missing}, "
                                        "which never reached it: the devices' programs do not meet at the same "
                                        "collectives")
                self.failure = error
                self._lock.notify_all()
                raise error
            values = [slot[d] for d in group]
            self._reads[key] = self._reads.get(key, 0) + 1
            if self._reads[key] == len(group):  # the last reader clears the meeting
                del self._deposits[key], self._reads[key]
            return values


@dataclass
class Device:
    """One simulated device: its replica and partition, and the run's meeting place."""

    replica: int
    partition: int
    replicas: int
    partitions: int
    rendezvous: Rendezvous
    _runs: dict[str, int] = field(default_factory=dict)  # instruction -> times this device ran it

    @property
    def index(self) -> int:
        return self.replica * self.partitions + self.partition

    def meeting(self, inst: Instruction) -> int:
        count = self._runs.get(inst.name, 0)
        self._runs[inst.name] = count + 1
        return count

    # ---- who takes part ----
    def group(self, inst: Instruction) -> tuple[int, ...]:
        """The global indices of the devices in this device's group, in group order."""
        groups = inst.attrs.get("replica_groups")
        listed = groups.device_groups() if isinstance(groups, ReplicaGroups) else ()
        channel = inst.attrs.get("channel_id") is not None
        global_ids = inst.attrs.get("use_global_device_ids")
        r, p, R, P = self.replica, self.partition, self.replicas, self.partitions
        if not channel:  # cross-replica: ids are replicas, within this partition
            ids, mine, to_global = range(R), r, (lambda i: [i * P + p])
        elif global_ids is None:  # cross-partition: ids are partitions, within this replica
            ids, mine, to_global = range(P), p, (lambda i: [r * P + i])
        elif global_ids:  # flattened ids
            ids, mine, to_global = range(R * P), self.index, (lambda i: [i])
        else:  # cross-replica-and-partition: replicas, each with all its partitions
            ids, mine, to_global = range(R), r, (lambda i: [i * P + q for q in range(P)])
        group = next((g for g in listed if mine in g), None) if listed else tuple(ids)
        if group is None:
            raise EvaluationError(f"{inst.opcode} {inst.name}: device {self.index} (replica {r}, partition {p}) "
                                  f"is in none of its replica_groups {groups}")
        return tuple(d for i in group for d in to_global(i))

    def permute_peers(self, inst: Instruction) -> tuple[tuple[int, ...], dict[int, int]]:
        """collective-permute: (every device that exchanges with this one, target -> source)
        in global indices."""
        pairs = inst.attrs.get("source_target_pairs")
        listed = pairs.pairs if isinstance(pairs, SourceTargetPairs) else ()
        r, p, P = self.replica, self.partition, self.partitions
        if inst.attrs.get("channel_id") is not None:  # partition ids, within this replica
            peers = tuple(r * P + q for q in range(P))
            to_global = lambda i: r * P + i  # noqa: E731
        else:  # replica ids, within this partition
            peers = tuple(q * P + p for q in range(self.replicas))
            to_global = lambda i: i * P + p  # noqa: E731
        return peers, {to_global(t): to_global(s) for s, t in listed}


# ---- the collectives on many devices ----

def all_reduce(ev: Evaluator, device: Device, inst: Instruction, ops: list):
    group = device.group(inst)
    key = (inst.name, device.meeting(inst), group)
    values = device.rendezvous.exchange(key, group, device.index, tuple(ops), _what(inst))
    reducer = ev.computation(inst.attr("to_apply"))
    results = []
    for k in range(len(ops)):
        total = values[0][k]
        for other in values[1:]:
            total = ev.run(reducer, [total, other[k]], lifted=True)
        results.append(np.asarray(total, dtype=np.asarray(ops[k]).dtype))
    return results[0] if len(results) == 1 else tuple(results)


def all_gather(ev: Evaluator, device: Device, inst: Instruction, ops: list):
    group = device.group(inst)
    key = (inst.name, device.meeting(inst), group)
    values = device.rendezvous.exchange(key, group, device.index, tuple(ops), _what(inst))
    dim = _dimension(inst)
    results = [np.concatenate([v[k] for v in values], axis=dim) for k in range(len(ops))]
    return results[0] if len(results) == 1 else tuple(results)


def reduce_scatter(ev: Evaluator, device: Device, inst: Instruction, ops: list):
    reduced = all_reduce(ev, device, inst, ops)
    group = device.group(inst)
    position, dim = group.index(device.index), _dimension(inst)
    parts = [reduced] if len(ops) == 1 else list(reduced)
    pieces = [np.array_split(np.asarray(r), len(group), axis=dim)[position] for r in parts]
    return pieces[0] if len(pieces) == 1 else tuple(pieces)


def all_to_all(ev: Evaluator, device: Device, inst: Instruction, ops: list):
    group = device.group(inst)
    key = (inst.name, device.meeting(inst), group)
    values = device.rendezvous.exchange(key, group, device.index, tuple(ops), _what(inst))
    position = group.index(device.index)
    if "dimensions" in inst.attrs:  # one array: piece j of every device's goes to device j
        dim = _dimension(inst)
        pieces = [np.array_split(np.asarray(v[0]), len(group), axis=dim)[position] for v in values]
        return np.concatenate(pieces, axis=dim)
    return tuple(np.asarray(v[position]) for v in values)  # tuple form: operand j goes to device j


def collective_permute(ev: Evaluator, device: Device, inst: Instruction, ops: list, zeros):
    peers, source_of = device.permute_peers(inst)
    key = (inst.name, device.meeting(inst), peers)
    values = device.rendezvous.exchange(key, peers, device.index, ops[0], _what(inst))
    source = source_of.get(device.index)
    return zeros if source is None else values[peers.index(source)]


def collective_broadcast(ev: Evaluator, device: Device, inst: Instruction, ops: list):
    group = device.group(inst)
    key = (inst.name, device.meeting(inst), group)
    values = device.rendezvous.exchange(key, group, device.index, tuple(ops), _what(inst))
    first = values[0]
    return first[0] if len(first) == 1 else tuple(first)


MESH_HANDLERS = {
    "all-reduce": all_reduce, "all-reduce-start": all_reduce,
    "all-gather": all_gather, "all-gather-start": all_gather,
    "reduce-scatter": reduce_scatter, "all-to-all": all_to_all, "collective-broadcast": collective_broadcast,
}


def _dimension(inst: Instruction) -> int:
    dims = inst.attrs.get("dimensions")
    if isinstance(dims, tuple) and dims and isinstance(dims[0], int):
        return dims[0]
    raise EvaluationError(f"{inst.opcode} {inst.name} needs dimensions={{...}}")


def _what(inst: Instruction) -> str:
    return f"{inst.opcode} {inst.name}"


# ---- running N devices ----

def evaluate_on_devices(module: HloModule, shards: Sequence[Sequence], evaluate_one) -> list:
    """Each device's results: `shards[d]` are device d's arguments; `evaluate_one(ev, args)`
    runs the ENTRY on one device's Evaluator (its `device` set)."""
    from .core import Evaluator

    replicas, partitions = device_count(module)
    count = replicas * partitions
    if len(shards) != count:
        raise EvaluationError(f"{module.name} runs on {count} devices ({replicas} replicas x {partitions} partitions): "
                              f"give {count} argument tuples, one per device, not {len(shards)}")
    rendezvous = Rendezvous(count)
    results: list[Any] = [None] * count
    errors: list[BaseException | None] = [None] * count

    def run(d: int) -> None:
        ev = Evaluator(module, Device(d // partitions, d % partitions, replicas, partitions, rendezvous))
        try:
            results[d] = evaluate_one(ev, shards[d])
        except BaseException as e:  # noqa: BLE001 - handed to the caller below, first failure first
            errors[d] = e
            rendezvous.fail(e)

    threads = [threading.Thread(target=run, args=(d,), name=f"hloscope-device-{d}", daemon=True) for d in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    first = next((e for e in errors if e is not None and not isinstance(e, DeviceFailed)), None) or next(
        (e for e in errors if e is not None), None)
    if first is not None:
        note = getattr(first, "add_note", None)  # Python 3.11 and newer
        if note is not None:
            note(f"(on device {errors.index(first)} of {count})")
        raise first
    return results
