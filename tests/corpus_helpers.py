"""The copied XLA corpus (tests/corpus): case names by tier, and one case's text and data."""

import json
from pathlib import Path

import numpy as np

CORPUS = Path(__file__).resolve().parent / "corpus"


def corpus_cases(tier: str = "core") -> list[str]:
    manifest = json.loads((CORPUS / "manifest.json").read_text())
    return sorted(n for n, c in manifest["cases"].items() if c["tier"] == tier)


def corpus_case(name: str):
    """(hlo text, args, outs, case metadata) of a corpus case."""
    manifest = json.loads((CORPUS / "manifest.json").read_text())
    data = np.load(CORPUS / f"{name}.npz")
    key = lambda s: int(s[3:])  # noqa: E731
    args = [data[k] for k in sorted((k for k in data.files if k.startswith("arg")), key=key)]
    outs = [data[k] for k in sorted((k for k in data.files if k.startswith("out")), key=key)]
    return (CORPUS / f"{name}.hlo").read_text(), args, outs, manifest["cases"][name]
