"""Writes tests/pytorch/: small real PyTorch programs as PyTorch/XLA lowers them, with their
inputs and XLA:CPU's outputs. Run by hand, never by the tests (they read only what it wrote):

    PJRT_DEVICE=CPU python tests/pytorch/make_torch_programs.py   # in an environment with
                                                                   # torch_xla and its own torch

(torch_xla X.Y needs torch X.Y exactly; on x86_64 Linux, Python 3.11: `pip install torch==2.9.0
torch_xla==2.9.0`.) For each program NAME it writes:

- NAME.lazy.hlo: one lazy step, `torch_xla._XLAC._get_xla_tensors_hlo(roots)`: the HLO text
  that `torch_xla.sync()` / `xm.mark_step()` would compile for those tensors.
- NAME.lazy.stablehlo.mlir: the same step as StableHLO, `xm.get_stablehlo(roots)`; the same
  parameters in the same order as NAME.lazy.hlo.
- NAME.npz: arg0.. the step's parameters in the HLO's parameter order, out0.. the roots as
  XLA:CPU computed them (the tuple the HLO returns). The parameter order is the order of
  `torch_xla._XLAC._get_tensors_xla_device_data_node(roots)`, which is how torch_xla's own
  dynamo bridge and StableHLO exporter feed a lowered graph: model weights, optimizer state,
  inputs and the Python scalars that torch_xla uploads as f32[] / s64[] data all appear, in
  the order the lowering first meets them (not the order of `model.parameters()`).
- NAME.stablehlo.mlir and NAME.stablehlo.npz, where torch.export captures the program:
  `torch_xla.stablehlo.exported_program_to_stablehlo(torch.export.export(model, args))
  .get_stablehlo_text()`; its npz has arg0.. in that function's parameter order (weights from
  the state dict, user inputs, lifted constants, as torch_xla's own call does) and out0.. its
  outputs run by torch_xla.
- mlp_adam_step.save_tensors.txt: the other way torch_xla hands out a step's HLO, the file that
  `XLA_SAVE_TENSORS_FILE=... XLA_SAVE_TENSORS_FMT=hlo` writes: each sync's graph between
  `## BEGIN_GRAPH` and `## END_GRAPH`, with the Python stack that synced and a `Graph Hash:`
  line after the module (here three Adam steps of mlp_adam_step, each followed by
  `torch_xla.sync()`). Folders in its stacks are shortened to `<site-packages>/`.
- manifest.json: versions, the APIs used, and per output its rtol/atol: exact for integer
  outputs; for float outputs atol is at least 4x the float32 error of XLA:CPU's run against a
  float64 run of the same lazy step from the same state, also on XLA:CPU (as tests/models
  measures). The float64 run is torch_xla's, not eager PyTorch's, because the two differ beyond
  rounding in one place here: torch_xla 2.9 updates BatchNorm's running_var with the biased
  batch variance, eager PyTorch with the unbiased one (convnet_sgd_step's out14, ~1.5e-4 apart);
  `eager_cpu_max_abs_diff` records how far eager float32 PyTorch is from XLA:CPU's outputs.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

os.environ.setdefault("PJRT_DEVICE", "CPU")

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch_xla  # noqa: E402
import torch_xla.core.xla_model as xm  # noqa: E402
from torch import nn  # noqa: E402
from torch_xla.stablehlo import _extract_call_parameters, exported_program_to_stablehlo  # noqa: E402

OUT = Path(__file__).resolve().parent
SEED = 20261205
RTOL, ATOL_FLOOR = 1e-5, 1e-6


# The programs ----------------------------------------------------------------------------
#
# Each builds its model, optimizer and inputs on a device (seeded, identical on every device),
# runs `warmup` steps there (so a training step's optimizer state already exists, as in the
# second step of a real loop), and then `step` runs the step whose graph is captured, returning
# its roots: the tensors a mark_step would materialize.

@dataclass
class State:
    model: nn.Module
    inputs: list[torch.Tensor]
    optimizer: torch.optim.Optimizer | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@dataclass
class Program:
    description: str
    build: Callable[[], tuple[nn.Module, list[torch.Tensor]]]  # on the CPU, float32, seeded
    step: Callable[[State], list[torch.Tensor]]
    make_optimizer: Callable[[nn.Module], torch.optim.Optimizer] | None = None
    warmup: int = 0
    train: bool = False
    export: bool = True  # torch.export captures the forward (model(*inputs)); a training step it does not


def mlp() -> tuple[nn.Module, list[torch.Tensor]]:
    torch.manual_seed(SEED)
    model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 32), nn.Tanh(), nn.Linear(32, 8))
    return model, [torch.randn(4, 16)]


def mlp_classifier() -> tuple[nn.Module, list[torch.Tensor]]:
    torch.manual_seed(SEED + 1)
    model = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 5))
    return model, [torch.randn(8, 16), torch.randint(0, 5, (8,))]


def convnet() -> tuple[nn.Module, list[torch.Tensor]]:
    torch.manual_seed(SEED + 2)
    model = nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(8, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10))
    with torch.no_grad():  # running statistics that are not the identity, as after training
        bn = model[1]
        bn.running_mean.copy_(torch.randn(8) * 0.1)
        bn.running_var.copy_(torch.rand(8) + 0.5)
    return model, [torch.randn(2, 3, 8, 8)]


def convnet_classifier() -> tuple[nn.Module, list[torch.Tensor]]:
    torch.manual_seed(SEED + 3)
    model = nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(8 * 4 * 4, 10))
    return model, [torch.randn(4, 3, 8, 8), torch.randint(0, 10, (4,))]


def forward(s: State) -> list[torch.Tensor]:
    return [s.model(*s.inputs)]


def train_step(s: State) -> list[torch.Tensor]:
    """One step of the usual loop: zero the grads, loss, backward, optimizer step. Roots: the
    loss, every parameter, every optimizer state tensor and every buffer (BatchNorm's running
    statistics and its step count), in that order."""
    x, y = s.inputs
    s.optimizer.zero_grad(set_to_none=True)
    loss = nn.functional.cross_entropy(s.model(x), y)
    loss.backward()
    s.optimizer.step()
    roots = [loss.detach(), *(p.detach() for p in s.model.parameters())]
    for p in s.model.parameters():
        for key, value in sorted(s.optimizer.state[p].items()):
            if key != "step":  # Adam's step count lives on the host: the step reads it as a Python number
                roots.append(value)
    roots += list(s.model.buffers())
    return roots


PROGRAMS: dict[str, Program] = {
    "mlp_forward": Program(
        "nn.Sequential MLP forward (Linear 16-32, ReLU, Linear 32-32, Tanh, Linear 32-8), batch 4",
        mlp, forward),
    "mlp_adam_step": Program(
        "training step of a GELU MLP classifier with cross-entropy and torch.optim.Adam (the second step:"
        " moments exist); roots loss, weights, exp_avg, exp_avg_sq",
        mlp_classifier, train_step, make_optimizer=lambda m: torch.optim.Adam(m.parameters(), lr=1e-2),
        warmup=1, train=True, export=False),
    "convnet_forward": Program(
        "small conv net forward in eval mode (Conv 3-8, BatchNorm, ReLU, MaxPool, Conv 8-16, ReLU, global"
        " average pool, Linear 16-10) on 2x3x8x8 images",
        convnet, forward),
    "convnet_sgd_step": Program(
        "training step of a conv net (Conv, BatchNorm in training mode, ReLU, MaxPool, Linear) with"
        " cross-entropy and SGD (momentum 0.9, weight decay 1e-4; the second step: momentum buffers"
        " exist); roots loss, weights, momentum buffers, BatchNorm's running statistics and count",
        convnet_classifier, train_step,
        make_optimizer=lambda m: torch.optim.SGD(m.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4),
        warmup=1, train=True, export=False),
}


def make_state(prog: Program, device: torch.device | str, dtype: torch.dtype,
               like: State | None = None) -> State:
    """The program's state on `device` in `dtype` (float tensors only); with `like`, a copy of
    that state's model, optimizer state and inputs instead of a fresh one."""
    model, inputs = prog.build()
    if like is not None:
        model.load_state_dict({k: v.detach().cpu() for k, v in like.model.state_dict().items()})
        inputs = [t.detach().cpu().clone() for t in like.inputs]
    model = model.to(device)
    model = model.to(dtype)
    model.train(prog.train)
    inputs = [(t.to(dtype) if t.is_floating_point() else t).to(device) for t in inputs]
    state = State(model, inputs)
    if prog.make_optimizer is not None:
        state.optimizer = prog.make_optimizer(model)
        if like is not None:
            sd = like.optimizer.state_dict()
            # cloned: .cpu() of a host tensor (Adam's step count) is that tensor, which the step updates in place
            sd["state"] = {k: {n: (v.detach().cpu().clone() if isinstance(v, torch.Tensor) else v) for n, v in st.items()}
                           for k, st in sd["state"].items()}
            state.optimizer.load_state_dict(sd)  # floating state takes each parameter's dtype and device
    return state


# Capture -----------------------------------------------------------------------------------

def numpy_of(t: torch.Tensor) -> np.ndarray:
    return t.detach().cpu().numpy().copy()


def entry_parameter_shapes(hlo: str) -> list[str]:
    """The shapes of the entry's parameters, from the module's entry_computation_layout."""
    m = re.search(r"entry_computation_layout=\{\((.*)\)->", hlo.splitlines()[0])
    assert m, hlo.splitlines()[0]
    body = re.sub(r"/\*index=\d+\*/", "", m.group(1))
    return [s.split("{")[0] for s in re.findall(r"[a-z0-9]+\[[0-9,]*\](?:\{[0-9,]*\})?", body)]


HLO_TYPES = {np.dtype(np.float32): "f32", np.dtype(np.float64): "f64", np.dtype(np.int64): "s64",
             np.dtype(np.int32): "s32", np.dtype(np.bool_): "pred"}


def hlo_shape(a: np.ndarray) -> str:
    return f"{HLO_TYPES[a.dtype]}[{','.join(map(str, a.shape))}]"


def capture_lazy(prog: Program) -> dict:
    dev = torch_xla.device()
    state = make_state(prog, dev, torch.float32)
    for _ in range(prog.warmup):
        prog.step(state)
        torch_xla.sync()
    torch_xla.sync()
    xm.wait_device_ops()
    ref64 = make_state(prog, dev, torch.float64, like=state)  # the same step from the same state, in float64 on XLA:CPU
    eager32 = make_state(prog, "cpu", torch.float32, like=state)  # and in eager PyTorch, for the record

    roots = prog.step(state)
    hlo = torch_xla._XLAC._get_xla_tensors_hlo(roots)
    stablehlo = xm.get_stablehlo(roots)
    _, values = torch_xla._XLAC._get_tensors_xla_device_data_node(roots)
    args = [numpy_of(v) for v in values]
    shapes = entry_parameter_shapes(hlo)
    assert shapes == [hlo_shape(a) for a in args], (shapes, [hlo_shape(a) for a in args])
    outs = [numpy_of(r) for r in roots]  # runs the step on XLA:CPU

    want64 = [numpy_of(r) for r in prog.step(ref64)]
    want32 = [numpy_of(r) for r in prog.step(eager32)]
    assert len(want64) == len(outs)
    return dict(hlo=hlo, stablehlo=stablehlo, args=args, outs=outs,
                tols=[tolerance(o, r) for o, r in zip(outs, want64)],
                eager_max_abs_diff=max(float(np.max(np.abs(o.astype(np.float64) - w.astype(np.float64)),
                                                 initial=0.0)) for o, w in zip(outs, want32)))


def capture_export(prog: Program) -> dict:
    """torch.export of the forward (CPU model), then torch_xla's StableHLO exporter."""
    model, inputs = prog.build()
    model.train(prog.train)
    exported = torch.export.export(model, tuple(inputs))
    shlo = exported_program_to_stablehlo(exported)
    func = shlo._bundle.stablehlo_funcs[0]
    call_args = _extract_call_parameters(tuple(inputs), func.meta, shlo._bundle)
    args = [np.asarray(a) if isinstance(a, np.ndarray) else numpy_of(a) for a in call_args]
    res = shlo(*inputs)
    outs = [numpy_of(r) for r in (res if isinstance(res, (list, tuple)) else [res])]
    model64 = prog.build()[0].double()
    model64.train(prog.train)
    want64 = model64(*[t.double() if t.is_floating_point() else t for t in inputs])
    want64 = [numpy_of(r) for r in (want64 if isinstance(want64, (list, tuple)) else [want64])]
    locations = [{"type": loc.type_.value, "position": loc.position, "name": loc.name} for loc in func.meta.input_locations]
    return dict(text=shlo.get_stablehlo_text(), args=args, outs=outs, locations=locations,
                tols=[tolerance(o, r) for o, r in zip(outs, want64)])


def tolerance(out: np.ndarray, ref: np.ndarray) -> dict:
    if out.dtype.kind not in "fc":
        return {"rtol": 0.0, "atol": 0.0}
    o, r = out.astype(np.float64), ref.astype(np.float64)
    abs_err = np.abs(o - r)
    beyond = float(np.max(abs_err - RTOL * np.abs(r), initial=0.0))
    return {"rtol": RTOL, "atol": float(max(ATOL_FLOOR, 4 * beyond)),
            "ref_max_abs_err": float(np.max(abs_err, initial=0.0)),
            "ref_max_rel_err": float(np.max(abs_err / np.maximum(np.abs(r), 1e-30), initial=0.0))}


def opcodes(text: str) -> list[str]:
    """The opcodes of HLO text: what follows an instruction's shape on each `name = ...` line."""
    found = set()
    for line in text.splitlines():
        _, eq, rest = line.partition(" = ")
        if not eq:
            continue
        rest = rest.strip()
        if rest.startswith("("):  # a tuple shape: skip its balanced parentheses
            depth = 0
            for i, ch in enumerate(rest):
                depth += ch == "("
                depth -= ch == ")"
                if depth == 0:
                    rest = rest[i + 1:]
                    break
        else:
            rest = rest.partition(" ")[2]
        m = re.match(r"\s*([a-z][a-z0-9-]*)\(", rest)
        if m:
            found.add(m.group(1))
    return sorted(found)


def spec(name: str, a: np.ndarray) -> dict:
    return {"name": name, "shape": list(a.shape), "dtype": str(a.dtype)}


def save_npz(path: Path, args: list[np.ndarray], outs: list[np.ndarray]) -> None:
    arrays = {f"arg{i}": a for i, a in enumerate(args)} | {f"out{i}": o for i, o in enumerate(outs)}
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]


DUMPED = "mlp_adam_step"


def dump_steps(name: str, steps: int = 3) -> None:
    """Run in a child process whose environment asks torch_xla for its save-tensors file."""
    prog = PROGRAMS[name]
    state = make_state(prog, torch_xla.device(), torch.float32)
    for _ in range(steps):
        prog.step(state)
        torch_xla.sync()
    xm.wait_device_ops()


def capture_save_tensors(name: str) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XLA_SAVE_TENSORS_FILE=f"{tmp}/save", XLA_SAVE_TENSORS_FMT="hlo")
        subprocess.run([sys.executable, __file__, "--dump", name], env=env, check=True)
        files = sorted(Path(tmp).glob("save*"))  # torch_xla adds the device ordinal: save.0
        assert len(files) == 1, files
        text = files[0].read_text()
    site = str(Path(torch.__file__).resolve().parents[1]) + "/"
    return text.replace(site, "<site-packages>/").replace(str(OUT) + "/", "")


def main() -> None:
    text = capture_save_tensors(DUMPED)
    (OUT / f"{DUMPED}.save_tensors.txt").write_text(text)
    cases = {}
    for name, prog in PROGRAMS.items():
        lazy = capture_lazy(prog)
        (OUT / f"{name}.lazy.hlo").write_text(lazy["hlo"])
        (OUT / f"{name}.lazy.stablehlo.mlir").write_text(lazy["stablehlo"])
        save_npz(OUT / f"{name}.npz", lazy["args"], lazy["outs"])
        outputs = [spec(f"out{i}", o) | t for i, (o, t) in enumerate(zip(lazy["outs"], lazy["tols"]))]
        case = {
            "description": prog.description,
            "opcodes": opcodes(lazy["hlo"]),
            "inputs": [spec(f"arg{i}", a) for i, a in enumerate(lazy["args"])],
            "outputs": outputs,
            "rtol": max(o["rtol"] for o in outputs),
            "atol": max(o["atol"] for o in outputs),
            "eager_cpu_max_abs_diff": lazy["eager_max_abs_diff"],
            "files": {"hlo": f"{name}.lazy.hlo", "lazy_stablehlo": f"{name}.lazy.stablehlo.mlir", "npz": f"{name}.npz"},
        }
        if prog.export:
            ex = capture_export(prog)
            (OUT / f"{name}.stablehlo.mlir").write_text(ex["text"])
            save_npz(OUT / f"{name}.stablehlo.npz", ex["args"], ex["outs"])
            case["export"] = {
                "inputs": [spec(f"arg{i}", a) | {"location": loc} for i, (a, loc) in
                           enumerate(zip(ex["args"], ex["locations"]))],
                "outputs": [spec(f"out{i}", o) | t for i, (o, t) in enumerate(zip(ex["outs"], ex["tols"]))],
                "files": {"stablehlo": f"{name}.stablehlo.mlir", "npz": f"{name}.stablehlo.npz"},
            }
        else:
            case["export"] = None
        cases[name] = case
        print(f"{name}: {len(lazy['args'])} parameters, {len(lazy['outs'])} outputs,"
              f" eager CPU max |diff| {lazy['eager_max_abs_diff']:.3g}", flush=True)
    meta = {
        "corpus": "pytorch",
        "generator": "tests/pytorch/make_torch_programs.py",
        "generated_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "torch_version": torch.__version__,
        "torch_xla_version": importlib.metadata.version("torch_xla"),
        "numpy_version": np.__version__,
        "python": platform.python_version(),
        "machine": platform.machine(),
        "pjrt_device": os.environ.get("PJRT_DEVICE"),
        "lazy_hlo_api": "torch_xla._XLAC._get_xla_tensors_hlo(roots)",
        "lazy_stablehlo_api": "torch_xla.core.xla_model.get_stablehlo(roots)",
        "save_tensors_file": {"file": f"{DUMPED}.save_tensors.txt", "env": "XLA_SAVE_TENSORS_FILE=<file> XLA_SAVE_TENSORS_FMT=hlo",
                              "what": "3 steps of the program, torch_xla.sync() after each"},
        "parameter_order": "torch_xla._XLAC._get_tensors_xla_device_data_node(roots): HLO parameter i is arg i",
        "export_api": "torch_xla.stablehlo.exported_program_to_stablehlo(torch.export.export(model, args)).get_stablehlo_text()",
        "npz_layout": "NAME.npz: arg0.. the lazy HLO's parameters in order, out0.. the roots (the HLO's result tuple) as XLA:CPU computed them;"
                      " NAME.stablehlo.npz: arg0.. the exported function's parameters in order, out0.. its outputs",
        "compare": "per output: np.allclose(got, outI, outputs[I].rtol, outputs[I].atol); rtol=atol=0 means exact equality",
        "tol_note": "float outputs: atol raised to >= 4x the float32 error of XLA:CPU's run vs a float64 run of the same lazy"
                    " step from the same state (torch_xla on XLA:CPU), beyond rtol; ref_max_abs_err / ref_max_rel_err record that"
                    " error. eager_cpu_max_abs_diff: eager float32 PyTorch vs XLA:CPU (torch_xla 2.9 updates BatchNorm's"
                    " running_var with the biased batch variance, eager PyTorch with the unbiased one)",
        "seed": SEED,
    }
    (OUT / "manifest.json").write_text(json.dumps({"meta": meta, "cases": cases}, indent=1) + "\n")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--dump"]:
        dump_steps(sys.argv[2])
    else:
        main()
