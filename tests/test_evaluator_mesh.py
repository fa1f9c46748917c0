"""Many devices in one process (hloscope/evaluator/mesh.py): `evaluate(module, shards)` runs a
module written for N devices as N devices, each collective computed from every member of its
group. Checked against numpy written from the collectives' definitions."""

from __future__ import annotations

import numpy as np
import pytest

import hloscope
from hloscope.errors import EvaluationError, NotSupportedError

ADD = """%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}
"""


def _module(body: str, partitions: int = 4, replicas: int = 1, params: str = "x: f32[4,2]",
            result: str = "f32[4,2]") -> hloscope.HloModule:
    return hloscope.parse_hlo(f"HloModule m, replica_count={replicas}, num_partitions={partitions}\n\n{ADD}\n"
                              f"ENTRY %main ({params}) -> {result} {{\n{body}\n}}\n")


def _shards(count: int = 4, shape=(4, 2), seed: int = 0) -> list[tuple[np.ndarray]]:
    rng = np.random.default_rng(seed)
    return [(rng.standard_normal(shape).astype(np.float32),) for _ in range(count)]


def test_all_reduce_over_every_partition():
    module = _module("  %x = f32[4,2] parameter(0)\n"
                     "  ROOT %r = f32[4,2] all-reduce(%x), channel_id=1, replica_groups={{0,1,2,3}}, to_apply=%add")
    shards = _shards()
    total = sum(s[0] for s in shards)
    for got in hloscope.evaluate(module, shards):
        np.testing.assert_allclose(got, total, rtol=1e-6)


def test_all_reduce_in_groups_written_as_iota():
    module = _module("  %x = f32[4,2] parameter(0)\n  ROOT %r = f32[4,2] all-reduce(%x), channel_id=1, "
                     "replica_groups=[2,2]<=[2,2]T(1,0), use_global_device_ids=true, to_apply=%add")
    shards = _shards()
    got = hloscope.evaluate(module, shards)
    for d, partner in ((0, 2), (1, 3), (2, 0), (3, 1)):  # groups {0,2} and {1,3}
        np.testing.assert_allclose(got[d], shards[d][0] + shards[partner][0], rtol=1e-6)


def test_all_gather_and_reduce_scatter():
    gather = _module("  %x = f32[4,2] parameter(0)\n  ROOT %g = f32[16,2] all-gather(%x), channel_id=1, "
                     "replica_groups={{0,1,2,3}}, dimensions={0}, use_global_device_ids=true", result="f32[16,2]")
    shards = _shards()
    whole = np.concatenate([s[0] for s in shards])
    for got in hloscope.evaluate(gather, shards):
        np.testing.assert_array_equal(got, whole)
    scatter = _module("  %x = f32[4,2] parameter(0)\n  ROOT %s = f32[1,2] reduce-scatter(%x), channel_id=1, "
                      "replica_groups={{0,1,2,3}}, dimensions={0}, use_global_device_ids=true, to_apply=%add",
                      result="f32[1,2]")
    total = sum(s[0] for s in shards)
    for d, got in enumerate(hloscope.evaluate(scatter, shards)):
        np.testing.assert_allclose(got, total[d : d + 1], rtol=1e-6)


def test_all_to_all_and_a_ring_of_collective_permutes():
    shards = _shards()
    to_all = _module("  %x = f32[4,2] parameter(0)\n  ROOT %t = f32[4,2] all-to-all(%x), channel_id=1, "
                     "replica_groups={{0,1,2,3}}, dimensions={0}")
    for d, got in enumerate(hloscope.evaluate(to_all, shards)):
        np.testing.assert_array_equal(got, np.stack([shards[j][0][d] for j in range(4)]))
    ring = _module("  %x = f32[4,2] parameter(0)\n  ROOT %p = f32[4,2] collective-permute(%x), channel_id=1, "
                   "source_target_pairs={{0,1},{1,2},{2,3}}")
    got = hloscope.evaluate(ring, shards)
    np.testing.assert_array_equal(got[0], np.zeros((4, 2), np.float32))  # nothing is sent to device 0
    for d in (1, 2, 3):
        np.testing.assert_array_equal(got[d], shards[d - 1][0])


def test_each_device_knows_its_ids_and_replica_groups_mean_replicas_without_a_channel():
    module = _module("  %x = f32[4,2] parameter(0)\n  %r = f32[4,2] all-reduce(%x), replica_groups={}, to_apply=%add\n"
                     "  %pid = u32[] partition-id()\n  %rid = u32[] replica-id()\n"
                     "  ROOT %t = (f32[4,2], u32[], u32[]) tuple(%r, %pid, %rid)",
                     partitions=2, replicas=2, result="(f32[4,2], u32[], u32[])")
    shards = _shards()
    got = hloscope.evaluate(module, shards)
    for d in range(4):
        replica, partition = divmod(d, 2)
        same_partition = [shards[r * 2 + partition][0] for r in range(2)]  # cross-replica: one partition
        np.testing.assert_allclose(got[d][0], sum(same_partition), rtol=1e-6)
        assert (int(got[d][1]), int(got[d][2])) == (partition, replica)


def test_a_wrong_number_of_shards_is_said():
    module = _module("  %x = f32[4,2] parameter(0)\n"
                     "  ROOT %r = f32[4,2] all-reduce(%x), channel_id=1, replica_groups={{0,1,2,3}}, to_apply=%add")
    with pytest.raises(EvaluationError, match=r"runs on 4 devices .* give 4 argument tuples, one per device, not 3"):
        hloscope.evaluate(module, _shards(3))
    with pytest.raises(EvaluationError, match=r"device 2: .*f32\[4,2\]"):
        bad = _shards()
        bad[2] = (np.zeros((3, 2), np.float32),)
        hloscope.evaluate(module, bad)


def test_one_device_evaluation_of_a_partitioned_module_points_at_shards():
    module = _module("  %x = f32[4,2] parameter(0)\n"
                     "  ROOT %r = f32[4,2] all-reduce(%x), channel_id=1, replica_groups={{0,1,2,3}}, to_apply=%add")
    with pytest.raises(NotSupportedError, match=r"hloscope.evaluate\(module, shards\)"):
        hloscope.evaluate(module, np.ones((4, 2), np.float32))


def test_async_all_reduce_meets_at_its_start_natively_too():
    module = _module("  %x = f32[4,2] parameter(0)\n"
                     "  %s = f32[4,2] all-reduce-start(%x), channel_id=1, replica_groups={{0,1},{2,3}}, "
                     "use_global_device_ids=true, to_apply=%add\n"
                     "  ROOT %d = f32[4,2] all-reduce-done(%s)")
    shards = _shards()
    for outputs in (hloscope.evaluate(module, shards), hloscope.compile(module, cache=False).run_sharded(shards)):
        for d, got in enumerate(outputs):
            partner = d ^ 1
            np.testing.assert_allclose(got, shards[d][0] + shards[partner][0], rtol=1e-6)
