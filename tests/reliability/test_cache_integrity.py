"""The on-disk compile cache (hloscope.backend.cpu.disk_cache): a damaged entry is detected and
rebuilt, and processes writing the same entry at once leave one valid entry behind.

Both run in child processes (cache_child.py): a damaged entry that slipped through could
make native code write out of bounds, which must not take the test run down with it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

CHILD = Path(__file__).with_name("cache_child.py")
REPO = Path(__file__).resolve().parents[2]
WRITERS = 4


def test_every_kind_of_damage_is_detected_and_rebuilt(tmp_path):
    from cache_child import DAMAGE

    run = subprocess.run([sys.executable, str(CHILD), "corrupt", str(tmp_path)], cwd=REPO,
                         capture_output=True, text=True, timeout=300)  # fmt: skip
    assert run.returncode == 0, f"the child process died:\n{run.stdout}\n{run.stderr}"
    lines = run.stdout.splitlines()
    assert [line for line in lines if not line.startswith("OK ")] == []
    assert {line[3:] for line in lines} == set(DAMAGE)


@pytest.mark.large
def test_concurrent_writers_leave_one_valid_entry(tmp_path):
    folder = tmp_path / "cache"
    command = [sys.executable, str(CHILD), "compile", str(folder)]
    children = [subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                for _ in range(WRITERS)]  # fmt: skip
    for child in children:
        out, err = child.communicate(timeout=300)
        assert child.returncode == 0 and out.startswith("OK "), f"{out}\n{err}"
    assert len(list(folder.glob("*.o"))) == 1 and len(list(folder.glob("*.json"))) == 1
    assert sorted(p.suffix for p in folder.iterdir()) == [".json", ".o"], "temporary files left behind"
    later = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert later.stdout.strip() == "OK disk", later.stdout + later.stderr
