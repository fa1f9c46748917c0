"""Writes tests/spmd: SPMD-partitioned programs from JAX on a forced 4-device host mesh.

    .venv/bin/python tests/spmd/make_spmd_programs.py      # rewrites everything here (~10 s)

For each program NAME (see README.md):
  NAME.pre.hlo          jax.jit(f, in_shardings, out_shardings).lower(*args).as_text(dialect="hlo"):
                        the global program with sharding annotations (Shardy export: `sharding={...}`
                        on parameters and root, `xla.sdy.*` frontend attributes and custom-calls)
  NAME.gspmd.pre.hlo    the same lowering with jax_use_shardy_partitioner=False (GSPMD): only HLO
                        `sharding={...}` attributes, no xla.sdy.* markup
  NAME.propagated.hlo   XLA's dump after the `shardy-xla` pass (sharding propagation done,
                        every instruction annotated, not yet partitioned)
  NAME.partitioned.hlo  XLA's dump right after the `spmd-partitioning` pass: the per-device
                        program before any later optimization
  NAME.spmd.hlo         lowered.compile().as_text(): XLA:CPU's optimized per-device program
  NAME.npz              arg0.. / out0.. global inputs and outputs; d{k}_arg{i} / d{k}_out{i} the
                        shard that partition k (device manifest.partition_to_device[k]) gets / makes
  manifest.json         versions, meshes, PartitionSpecs, HloShardings, shard index ranges,
                        collectives of each module, tolerances (as tests/models: 4x XLA's float32
                        error against a float64 run of the same sharded program, rtol 1e-5)

XLA_FLAGS and JAX_PLATFORMS are set before jax is imported: the script always runs on 4 host
CPU devices whatever the calling environment says.
"""

from __future__ import annotations

import os

os.environ["XLA_FLAGS"] = (os.environ.get("XLA_FLAGS", "") + " --xla_force_host_platform_device_count=4").strip()
os.environ["JAX_PLATFORMS"] = "cpu"

import json  # noqa: E402
import platform  # noqa: E402
import re  # noqa: E402
import shutil  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
import zlib  # noqa: E402
from pathlib import Path  # noqa: E402

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import jaxlib  # noqa: E402
import numpy as np  # noqa: E402
from jax.sharding import Mesh, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

OUT = Path(__file__).resolve().parent
CHECKOUT = Path(__file__).resolve().parents[2]
RTOL, ATOL_FLOOR = 1e-5, 1e-6
SEED = 20240611
NDEV = 4
DUMP_PASS_RE = "shardy-xla|sharding-propagation|spmd-partitioning|spmd-partitioner"
COLLECTIVE_OPS = ("all-reduce", "all-gather", "reduce-scatter", "all-to-all", "collective-permute",
                  "collective-broadcast", "partition-id", "replica-id")


# ----------------------------------------------------------------------------------------------
# programs: each returns (fn, args pytree, in-spec pytree, out-spec pytree, mesh, description)
# ----------------------------------------------------------------------------------------------

def mesh_1d() -> Mesh:
    return Mesh(np.array(jax.devices()[:NDEV]), ("data",))


def mesh_2x2() -> Mesh:
    return Mesh(np.array(jax.devices()[:NDEV]).reshape(2, 2), ("data", "model"))


def _mlp(params, x):
    w1, b1, w2, b2 = params
    return jnp.tanh(x @ w1 + b1) @ w2 + b2


def _mse(params, x, y):
    return jnp.mean((_mlp(params, x) - y) ** 2)


def _sgd_step(params, x, y, lr=0.1):
    loss, grads = jax.value_and_grad(_mse)(params, x, y)
    return tuple(p - lr * g for p, g in zip(params, grads)), loss


def dp_train_step(rng):
    f32 = np.float32
    params = (rng.normal(size=(8, 16)).astype(f32) * f32(0.3), rng.normal(size=(16,)).astype(f32) * f32(0.1),
              rng.normal(size=(16, 4)).astype(f32) * f32(0.3), rng.normal(size=(4,)).astype(f32) * f32(0.1))
    x, y = rng.normal(size=(16, 8)).astype(f32), rng.normal(size=(16, 4)).astype(f32)
    rep = (P(), P(), P(), P())
    return (_sgd_step, (params, x, y), (rep, P("data"), P("data")), (rep, P()), mesh_1d(),
            "data parallel: 2-layer tanh MLP (w1 [8,16], b1 [16], w2 [16,4], b2 [4], replicated), "
            "MSE loss, SGD lr 0.1; x [16,8], y [16,4] batch-sharded P('data') over 4 devices; "
            "returns (new params (replicated), loss (replicated))")


def mlp_2x2(rng):
    f32 = np.float32
    x = rng.normal(size=(8, 16)).astype(f32)
    w1 = (rng.normal(size=(16, 32)) * 0.25).astype(f32)
    w2 = (rng.normal(size=(32, 8)) * 0.25).astype(f32)

    def f(x, w1, w2):
        return jnp.tanh(x @ w1) @ w2

    return (f, (x, w1, w2), (P("data", None), P(None, "model"), P("model", None)), P("data", None), mesh_2x2(),
            "2x2 mesh ('data','model'): y = tanh(x @ w1) @ w2, x [8,16] P('data',None), w1 [16,32] "
            "P(None,'model'), w2 [32,8] P('model',None), y [8,8] P('data',None) (Megatron-style MLP)")


def fsdp_step(rng):
    f32 = np.float32
    params = (rng.normal(size=(16, 32)).astype(f32) * f32(0.25), rng.normal(size=(32,)).astype(f32) * f32(0.1),
              rng.normal(size=(32, 8)).astype(f32) * f32(0.25), rng.normal(size=(8,)).astype(f32) * f32(0.1))
    x, y = rng.normal(size=(16, 16)).astype(f32), rng.normal(size=(16, 8)).astype(f32)
    ps = (P("data", None), P("data"), P("data", None), P("data"))
    return (_sgd_step, (params, x, y), (ps, P("data", None), P("data", None)), (ps, P()), mesh_1d(),
            "fully sharded data parallel: same MLP + MSE + SGD step as dp_train_step, but every parameter "
            "sharded on its first dimension P('data') (w1 [16,32], b1 [32], w2 [32,8], b2 [8]) and the batch "
            "(x [16,16], y [16,8]) too; new params keep P('data'), loss replicated")


def shard_map_collectives(rng):
    x = rng.normal(size=(8, 8)).astype(np.float32)
    ring = [(j, (j + 1) % NDEV) for j in range(NDEV)]

    def body(x):  # x: this device's [2, 8] block
        i = jax.lax.axis_index("data")
        shifted = jax.lax.ppermute(x, "data", ring)
        a2a = jax.lax.all_to_all(x, "data", split_axis=1, concat_axis=0, tiled=True)  # [8, 2]
        summed = jax.lax.psum(x, "data")  # [2, 8], the same on every device
        gathered = jax.lax.all_gather(x, "data", tiled=True)  # [8, 8], the same on every device
        scattered = jax.lax.psum_scatter(x, "data", scatter_dimension=1, tiled=True)  # [2, 2]
        scaled = x * (i + 1).astype(x.dtype)
        return shifted, a2a, summed, gathered, scattered, scaled, i.reshape(1)

    out_specs = (P("data"), P("data"), P(), P("data"), P("data"), P("data"), P("data"))
    fn = jax.shard_map(body, mesh=mesh_1d(), in_specs=P("data"), out_specs=out_specs)
    return (fn, (x,), (P("data"),), out_specs, mesh_1d(),
            "jax.shard_map over a 1-D mesh of 4 ('data'), x [8,8] P('data') (a [2,8] block per device): "
            "out0 ppermute ring shift j->j+1; out1 all_to_all(split 1, concat 0, tiled) [8,2] per device; "
            "out2 psum (out_spec P(): one copy); out3 all_gather tiled [8,8] per device (out_spec P('data'): "
            "global [32,8] = 4 copies); out4 psum_scatter(dim 1, tiled) [2,2]; out5 x * (axis_index+1); "
            "out6 axis_index (s32[1] per device, global [4])")


PROGRAMS = {"dp_train_step": dp_train_step, "mlp_2x2": mlp_2x2, "fsdp_step": fsdp_step,
            "shard_map_collectives": shard_map_collectives}


# ----------------------------------------------------------------------------------------------
# helpers
# ----------------------------------------------------------------------------------------------

def flat_program(fn, args, in_specs, out_specs):
    """fn as a function of the flattened argument leaves returning a flat tuple of result leaves,
    and the leaves and per-leaf specs (in and out) in jax.tree_util order."""
    leaves, tree = jax.tree_util.tree_flatten(args)
    in_leaf_specs = _broadcast_specs(in_specs, args)
    out_shape = jax.eval_shape(fn, *args)
    out_leaf_specs = _broadcast_specs(out_specs, out_shape)

    def flat(*xs):
        return tuple(jax.tree_util.tree_leaves(fn(*jax.tree_util.tree_unflatten(tree, xs))))

    return flat, [np.asarray(x) for x in leaves], in_leaf_specs, out_leaf_specs


def _broadcast_specs(specs, values):
    """One PartitionSpec per leaf of values (specs is a tree prefix of values)."""
    is_spec = lambda s: isinstance(s, P)  # noqa: E731
    out = []
    for spec, sub in zip(jax.tree_util.tree_leaves(specs, is_leaf=is_spec),
                         jax.tree_util.tree_structure(specs, is_leaf=is_spec).flatten_up_to(values)):
        out += [spec] * len(jax.tree_util.tree_leaves(sub))
    assert len(out) == len(jax.tree_util.tree_leaves(values))
    return out


def spec_json(spec: P) -> list:
    return [list(s) if isinstance(s, tuple) else s for s in spec]


def index_ranges(index: tuple, shape: tuple) -> list:
    """A shard's index (tuple of slices) as [[start, stop], ...] per dimension."""
    out = []
    for sl, n in zip(index, shape):
        start, stop, step = sl.indices(n)
        assert step == 1
        out.append([start, stop])
    return out


def strip_checkout(text: str) -> str:
    """XLA's texts name source files by absolute path: keep them relative to the checkout."""
    return text.replace(str(CHECKOUT) + "/", "")


def entry_layout_shapes(hlo: str) -> tuple[list[str], list[str]]:
    """The parameter and result shapes of an HLO module's entry_computation_layout header."""
    header = hlo.split("\n", 1)[0]
    m = re.search(r"entry_computation_layout=\{\((.*)\)->(.*?)\}(?:, [a-z_]+=|$)", header)
    assert m, header
    shape_re = r"([a-z0-9]+\[[0-9,]*\])"
    return re.findall(shape_re, m.group(1)), re.findall(shape_re, m.group(2))


def shape_text(a: np.ndarray) -> str:
    dt = {"float32": "f32", "float64": "f64", "int32": "s32", "uint32": "u32", "bool": "pred"}[str(a.dtype)]
    return f"{dt}[{','.join(map(str, a.shape))}]"


def header_attrs(hlo: str) -> dict:
    header = hlo.split("\n", 1)[0]
    out = {"num_partitions": None, "replica_count": None}
    for k in out:
        m = re.search(rf"\b{k}=(\d+)", header)
        out[k] = int(m.group(1)) if m else None
    return out


def collectives(hlo: str) -> list[dict]:
    """Every collective / partition-id / replica-id instruction of an HLO text, with its attributes."""
    found = []
    op_alt = "|".join(re.escape(o) for o in COLLECTIVE_OPS)
    comp = None
    for line in hlo.splitlines():
        mc = re.match(r"^(?:ENTRY )?%?([\w.\-]+) .*\{$", line)
        if mc and not line.startswith(" "):
            comp = mc.group(1)
        m = re.match(rf"^\s*(ROOT )?%?([\w.\-]+) = (.*?) ({op_alt})(-start|-done)?\((.*)$", line)
        if not m:
            continue
        rest = m.group(6)
        rec = {"computation": comp, "name": m.group(2), "opcode": m.group(4) + (m.group(5) or ""),
               "shape": m.group(3)}
        for attr in ("channel_id", "use_global_device_ids", "dimensions", "constrain_layout"):
            ma = re.search(rf"\b{attr}=(\{{[^}}]*\}}|[\w]+)", rest)
            if ma:
                rec[attr] = ma.group(1)
        mr = re.search(r"\breplica_groups=(mesh\[[^\]]*\] \{[^}]*\}|\[[0-9,]+\]<=\[[0-9,]+\](?:T\([0-9,]+\))?|"
                       r"\{(?:\{[0-9,]*\},?)*\})", rest)
        if mr:
            rec["replica_groups"] = mr.group(1)
        ms = re.search(r"\bsource_target_pairs=(\{(?:\{[0-9,]*\},?)*\})", rest)
        if ms:
            rec["source_target_pairs"] = ms.group(1)
        mt = re.search(r"\bto_apply=%?([\w.\-]+)", rest)
        if mt:
            rec["to_apply"] = mt.group(1)
        found.append(rec)
    return found


def pick_dump(folder: Path, after: tuple[str, ...]) -> Path | None:
    """The first per-pass snapshot written after one of the passes in `after`, in pass order."""
    files = sorted(folder.glob("module_*.*.after_*.txt"))
    for name in after:
        hits = [f for f in files if f".after_{name}." in f.name]
        if hits:
            return hits[0]
    return None


def hlo_sharding_text(op_sharding) -> str:
    """An executable's OpSharding proto as HloSharding text ({devices=[4,1]<=[4]}, {replicated})."""
    from jax._src.lib import xla_client
    return xla_client.HloSharding.from_proto(op_sharding).to_string()


def check_shard_map_semantics(rec: dict) -> None:
    """shard_map_collectives: the per-device results are what each collective means, and the
    axis_index output (partition-id() & 3 in the spmd module) says partition k ran as index k."""
    sh = {key: data for key, (data, _) in rec["shards"].items()}
    x = [sh[f"d{k}_arg0"] for k in range(NDEV)]
    for k in range(NDEV):
        np.testing.assert_array_equal(sh[f"d{k}_out0"], x[(k - 1) % NDEV])  # ppermute j -> j+1
        np.testing.assert_array_equal(sh[f"d{k}_out1"], np.concatenate([xj[:, 2 * k:2 * k + 2] for xj in x]))
        np.testing.assert_allclose(sh[f"d{k}_out2"], sum(x), rtol=1e-6)
        np.testing.assert_array_equal(sh[f"d{k}_out3"], np.concatenate(x))
        np.testing.assert_allclose(sh[f"d{k}_out4"], sum(x)[:, 2 * k:2 * k + 2], rtol=1e-6)
        np.testing.assert_array_equal(sh[f"d{k}_out5"], x[k] * (k + 1))
        assert sh[f"d{k}_out6"].tolist() == [k], (k, sh[f"d{k}_out6"])


def _tolerance(out: np.ndarray, ref: np.ndarray) -> dict:
    if out.dtype.kind not in "fc":
        return {"rtol": 0.0, "atol": 0.0}
    o, r = out.astype(np.float64), ref.astype(np.float64)
    abs_err = np.abs(o - r)
    beyond = float(np.max(abs_err - RTOL * np.abs(r), initial=0.0))
    return {"rtol": RTOL, "atol": float(max(ATOL_FLOOR, 4 * beyond)),
            "ref_max_abs_err": float(np.max(abs_err, initial=0.0)),
            "ref_max_rel_err": float(np.max(abs_err / np.maximum(np.abs(r), 1e-30), initial=0.0))}


# ----------------------------------------------------------------------------------------------
# phases
# ----------------------------------------------------------------------------------------------

def lower_all(dump_root: Path) -> dict:
    made = {}
    for name, build in PROGRAMS.items():
        rng = np.random.default_rng(SEED + zlib.crc32(name.encode()))
        fn, args, in_specs, out_specs, mesh, description = build(rng)
        flat, leaves, in_leaf, out_leaf = flat_program(fn, args, in_specs, out_specs)
        in_sh = tuple(NamedSharding(mesh, s) for s in in_leaf)
        out_sh = tuple(NamedSharding(mesh, s) for s in out_leaf)
        jitted = jax.jit(flat, in_shardings=in_sh, out_shardings=out_sh)
        lowered = jitted.lower(*leaves)
        dump = dump_root / name
        compiled = lowered.compile(compiler_options={"xla_dump_to": str(dump), "xla_dump_hlo_pass_re": DUMP_PASS_RE})

        # partition id k -> device: the executable's device assignment (1 replica, 4 partitions)
        exe_devices = list(compiled.runtime_executable().local_devices())
        assignment = list(in_sh[0]._device_assignment)
        assert [d.id for d in exe_devices] == [d.id for d in assignment] == [d.id for d in mesh.devices.flat], name
        part_of = {d.id: k for k, d in enumerate(exe_devices)}

        global_in = [jax.device_put(a, s) for a, s in zip(leaves, in_sh)]
        outs = list(compiled(*global_in))
        assert len(outs) == len(out_sh), name
        rec = dict(fn=flat, leaves=leaves, in_sh=in_sh, out_sh=out_sh, in_leaf=in_leaf, out_leaf=out_leaf,
                   mesh=mesh, description=description, partition_to_device=[d.id for d in exe_devices],
                   pre=lowered.as_text(dialect="hlo"), spmd=strip_checkout(compiled.as_text()),
                   outs=[np.asarray(o) for o in outs], shards={})
        for kind, arrays, shardings in (("arg", global_in, in_sh), ("out", outs, out_sh)):
            for i, (arr, sh) in enumerate(zip(arrays, shardings)):
                idx_map = sh.devices_indices_map(arr.shape)
                full = np.asarray(arr)
                for shard in arr.addressable_shards:
                    k = part_of[shard.device.id]
                    data = np.asarray(shard.data)
                    assert shard.index == idx_map[shard.device], (name, kind, i)
                    np.testing.assert_array_equal(data, full[shard.index])
                    rec["shards"][f"d{k}_{kind}{i}"] = (data, index_ranges(shard.index, arr.shape))
        # the executable's parameter / result shardings (HloSharding text, partition-id based)
        rt = compiled.runtime_executable()
        rec["hlo_in_shardings"] = [hlo_sharding_text(s) for s in rt.get_parameter_shardings() or []]
        rec["hlo_out_shardings"] = [hlo_sharding_text(s) for s in rt.get_output_shardings() or []]
        for label, passes in (("propagated", ("shardy-xla", "sharding-propagation")),
                              ("partitioned", ("spmd-partitioning", "spmd-partitioner"))):
            snap = pick_dump(dump, passes)
            rec[label] = strip_checkout(snap.read_text()) if snap else None
            rec[label + "_from"] = re.sub(r"^module_\d+\.", "module_NNNN.", snap.name) if snap else None
        rec["dump_files"] = sorted(re.sub(r"^module_\d+\.", "module_NNNN.", p.name) for p in dump.iterdir())
        check_entry_shapes(name, rec)
        if name == "shard_map_collectives":
            check_shard_map_semantics(rec)
        made[name] = rec
    return made


def check_entry_shapes(name: str, rec: dict) -> None:
    """Each device's arg shards (and out shards) have the shapes of the per-device module's entry."""
    for label in ("spmd", "partitioned"):
        if rec.get(label) is None:
            continue
        params, results = entry_layout_shapes(rec[label])
        assert len(params) == len(rec["leaves"]), (name, label, params)
        assert len(results) == len(rec["outs"]), (name, label, results)
        for k in range(NDEV):
            got_p = [shape_text(rec["shards"][f"d{k}_arg{i}"][0]) for i in range(len(params))]
            got_r = [shape_text(rec["shards"][f"d{k}_out{i}"][0]) for i in range(len(results))]
            assert got_p == params, (name, label, k, got_p, params)
            assert got_r == results, (name, label, k, got_r, results)


def reference_errors(made: dict) -> None:
    """x64 on: each float output's error against a float64 run of the same sharded program."""
    jax.config.update("jax_enable_x64", True)
    try:
        for name, m in made.items():
            wide = [x.astype(np.float64) if x.dtype.kind == "f" else x for x in m["leaves"]]
            f = jax.jit(m["fn"], in_shardings=m["in_sh"], out_shardings=m["out_sh"])
            refs = [np.asarray(o) for o in f(*wide)]
            assert len(refs) == len(m["outs"]), name
            m["tols"] = [_tolerance(o, r) for o, r in zip(m["outs"], refs)]
    finally:
        jax.config.update("jax_enable_x64", False)


def lower_gspmd(made: dict) -> None:
    """The same jit lowered with jax_use_shardy_partitioner=False (GSPMD, deprecated in XLA but still
    there): a pre-partition module whose only sharding markup is HLO `sharding={...}` attributes (no
    xla.sdy.* custom-calls / frontend attributes). Lowering only; nothing is compiled or run this way."""
    jax.config.update("jax_use_shardy_partitioner", False)
    try:
        for m in made.values():
            f = jax.jit(m["fn"], in_shardings=m["in_sh"], out_shardings=m["out_sh"])
            m["gspmd_pre"] = f.lower(*m["leaves"]).as_text(dialect="hlo")
    finally:
        jax.config.update("jax_use_shardy_partitioner", True)


def write(made: dict) -> None:
    cases = {}
    for name, m in made.items():
        files = {"pre_hlo": f"{name}.pre.hlo", "spmd_hlo": f"{name}.spmd.hlo", "npz": f"{name}.npz"}
        (OUT / files["pre_hlo"]).write_text(m["pre"])
        (OUT / files["spmd_hlo"]).write_text(m["spmd"])
        files["gspmd_pre_hlo"] = f"{name}.gspmd.pre.hlo"
        (OUT / files["gspmd_pre_hlo"]).write_text(m["gspmd_pre"])
        for label in ("propagated", "partitioned"):
            if m[label] is not None:
                files[f"{label}_hlo"] = f"{name}.{label}.hlo"
                (OUT / files[f"{label}_hlo"]).write_text(m[label])
        arrays = {f"arg{i}": a for i, a in enumerate(m["leaves"])} | {f"out{i}": a for i, a in enumerate(m["outs"])}
        arrays |= {key: data for key, (data, _) in sorted(m["shards"].items())}
        np.savez_compressed(OUT / files["npz"], **arrays)  # type: ignore[arg-type]

        def io(kind, arrays_, specs, shardings, extra=None):
            rows = []
            for i, (a, spec, sh) in enumerate(zip(arrays_, specs, shardings)):
                row = {"name": f"{kind}{i}", "shape": list(a.shape), "dtype": str(a.dtype),
                       "partition_spec": spec_json(spec),
                       "hlo_sharding": str(sh._to_xla_hlo_sharding(a.ndim)),
                       "replicated": bool(sh.is_fully_replicated),
                       "shard_shape": list(sh.shard_shape(a.shape)),
                       "per_partition_index": [m["shards"][f"d{k}_{kind}{i}"][1] for k in range(NDEV)]}
                if extra is not None:
                    row |= extra[i]
                rows.append(row)
            return rows

        outputs = io("out", m["outs"], m["out_leaf"], m["out_sh"], m["tols"])
        pre_h, spmd_h = header_attrs(m["pre"]), header_attrs(m["spmd"])
        cases[name] = {
            "description": m["description"],
            "mesh": {"shape": dict(m["mesh"].shape), "axis_names": list(m["mesh"].axis_names),
                     "device_ids": np.vectorize(lambda d: d.id)(m["mesh"].devices).tolist()},
            "partition_to_device": m["partition_to_device"],
            "inputs": io("arg", m["leaves"], m["in_leaf"], m["in_sh"]),
            "outputs": outputs,
            "rtol": max(o["rtol"] for o in outputs),
            "atol": max(o["atol"] for o in outputs),
            "executable_parameter_shardings": m["hlo_in_shardings"],
            "executable_output_shardings": m["hlo_out_shardings"],
            "pre_hlo": {"sharding_annotations": m["pre"].count("sharding={"),
                        "sdy_custom_calls": sorted(set(re.findall(r'custom_call_target="(xla\.sdy\.[\w]+)"', m["pre"]))),
                        "header": pre_h, "collectives": collectives(m["pre"])},
            "gspmd_pre_hlo": {"sharding_annotations": m["gspmd_pre"].count("sharding={"),
                              "custom_call_targets": sorted(set(re.findall(r'custom_call_target="([^"]+)"', m["gspmd_pre"]))),
                              "header": header_attrs(m["gspmd_pre"])},
            "propagated_hlo": {"from_dump": m["propagated_from"],
                               "header": header_attrs(m["propagated"]) if m["propagated"] else None},
            "partitioned_hlo": {"from_dump": m["partitioned_from"],
                                "header": header_attrs(m["partitioned"]) if m["partitioned"] else None,
                                "collectives": collectives(m["partitioned"]) if m["partitioned"] else None},
            "spmd_hlo": {"header": spmd_h, "collectives": collectives(m["spmd"])},
            "xla_dump_files": m["dump_files"],
            "files": files,
        }
    meta = {
        "corpus": "spmd",
        "generator": "tests/spmd/make_spmd_programs.py",
        "generated_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "jax_version": jax.__version__,
        "jaxlib_version": jaxlib.__version__,
        "numpy_version": np.__version__,
        "python": platform.python_version(),
        "backend": jax.default_backend(),
        "xla_flags": os.environ["XLA_FLAGS"],
        "shardy": bool(jax.config.jax_use_shardy_partitioner),
        "num_devices": NDEV,
        "pre_hlo_api": 'jax.jit(f, in_shardings=..., out_shardings=...).lower(*args).as_text(dialect="hlo")',
        "spmd_hlo_api": "lowered.compile().as_text()",
        "dump_api": f"lowered.compile(compiler_options={{'xla_dump_to': DIR, 'xla_dump_hlo_pass_re': '{DUMP_PASS_RE}'}})",
        "npz_layout": "arg0..argK: the flattened argument pytree (jax.tree_util order) as global arrays; "
                      "out0..outM: the flattened result as global arrays; d{k}_arg{i}: the block of arg i that "
                      "partition k is given (the whole array when replicated), in the per-device module's "
                      "parameter order; d{k}_out{i}: partition k's block of out i",
        "partition_note": "partition k runs on device partition_to_device[k] (the executable's device "
                          "assignment; 1 replica x 4 partitions, so with use_global_device_ids=true the global "
                          "device id in replica_groups is the partition id). per_partition_index gives each "
                          "block's [start, stop) per dimension in the global array",
        "compare": "per output: np.allclose(got, outI (or d{k}_outI), outputs[I].rtol, outputs[I].atol); "
                   "rtol=atol=0 means exact equality",
        "tol_note": "float outputs: atol raised to >= 4x XLA's float32 error vs a float64 run of the same "
                    "sharded program (x64 on, float inputs cast to float64) beyond rtol; ref_max_abs_err / "
                    "ref_max_rel_err record that error",
        "seed": f"np.random.default_rng({SEED} + zlib.crc32(name))",
    }
    (OUT / "manifest.json").write_text(json.dumps({"meta": meta, "cases": cases}, indent=1) + "\n")


def main() -> None:
    assert len(jax.devices()) >= NDEV, jax.devices()
    dump_root = Path(tempfile.mkdtemp(prefix="spmd_dump_"))
    try:
        made = lower_all(dump_root)
        reference_errors(made)
        lower_gspmd(made)
        write(made)
    finally:
        shutil.rmtree(dump_root, ignore_errors=True)
    for name, m in made.items():
        ops = sorted({c["opcode"] for c in collectives(m["spmd"])})
        worst = max((t.get("ref_max_abs_err", 0.0) for t in m["tols"]), default=0.0)
        print(f"{name:24s} {len(m['leaves']):2d} args {len(m['outs']):2d} outs  worst f32 err {worst:.2e}  "
              f"partitioned from {m['partitioned_from']}  spmd collectives {ops}")


if __name__ == "__main__":
    main()
