"""A JupyterLab server for a browser test: started on a free port with a token and private
settings, and shut down completely (kernels included) afterwards.

    with JupyterLab(root_dir) as lab:
        page.goto(lab.url("lab/tree/notebook.ipynb"))
        lab.wait_idle()
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

START_TIMEOUT = 90


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class JupyterLab:
    """A `jupyter lab` child process; its config, data, runtime and settings folders live
    under `home` (a temporary folder), so nothing of the user's Jupyter setup leaks in."""

    def __init__(self, root_dir: Path, home: Path):
        self.root_dir, self.home = Path(root_dir), Path(home)
        self.port, self.token = free_port(), secrets.token_hex(16)
        self.proc: subprocess.Popen | None = None
        self.log = self.home / "jupyterlab.log"
        self._leaving: set[str] = set()  # kernels of earlier notebooks, being shut down

    def url(self, path: str) -> str:
        sep = "&" if "?" in path else "?"
        return f"http://127.0.0.1:{self.port}/{path}{sep}token={self.token}"

    def _env(self) -> dict:
        env = dict(os.environ)
        for var, sub in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                         ("JUPYTER_RUNTIME_DIR", "runtime"), ("JUPYTERLAB_SETTINGS_DIR", "settings"),
                         ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"), ("IPYTHONDIR", "ipython")):
            env[var] = str(self.home / sub)
            (self.home / sub).mkdir(parents=True, exist_ok=True)
        # No news/update toasts over the notebook.
        labconfig = self.home / "config" / "labconfig"
        labconfig.mkdir(parents=True, exist_ok=True)
        (labconfig / "page_config.json").write_text(json.dumps(
            {"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}}))
        # Every cell in the DOM, not only those in view: a test reads the whole notebook.
        tracker = self.home / "settings" / "@jupyterlab" / "notebook-extension"
        tracker.mkdir(parents=True, exist_ok=True)
        (tracker / "tracker.jupyterlab-settings").write_text(json.dumps({"windowingMode": "none"}))
        return env

    def start(self) -> "JupyterLab":
        command = [
            sys.executable, "-m", "jupyterlab", "--no-browser", f"--port={self.port}", "--ServerApp.ip=127.0.0.1",
            "--ServerApp.port_retries=0", f"--IdentityProvider.token={self.token}",
            f"--ServerApp.root_dir={self.root_dir}", "--allow-root", "--LabApp.news_url=",
            "--LabApp.expose_app_in_browser=True",  # window.jupyterapp: open notebooks in a loaded page
        ]
        self.proc = subprocess.Popen(command, env=self._env(), cwd=self.root_dir, stdout=self.log.open("wb"),
                                     stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.time() + START_TIMEOUT
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyter lab exited ({self.proc.returncode}):\n{self.log_tail()}")
            try:
                self.api("api/status")
                return self
            except OSError:
                time.sleep(0.5)
        raise RuntimeError(f"jupyter lab did not start in {START_TIMEOUT} s:\n{self.log_tail()}")

    def api(self, path: str, method: str = "GET"):
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/{path}", method=method,
                                         headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=10) as response:
            body = response.read()
        return json.loads(body) if body else None

    def kernels_idle(self) -> bool:
        """Whether at least one kernel runs and every kernel is idle (those being shut down
        after an earlier notebook left out)."""
        try:
            kernels = [k for k in self.api("api/kernels") if k["id"] not in self._leaving]
        except OSError:  # a kernel that is still starting can make the listing fail (HTTP 500)
            return False
        return bool(kernels) and all(k["execution_state"] == "idle" for k in kernels)

    def wait_idle(self, timeout: float = 120, settle: float = 1.0) -> None:
        """Until at least one kernel runs and every kernel has been idle for `settle` s."""
        deadline, idle_since = time.time() + timeout, None
        while time.time() < deadline:
            if self.kernels_idle():
                idle_since = idle_since or time.time()
                if time.time() - idle_since >= settle:
                    return
            else:
                idle_since = None
            time.sleep(0.25)
        raise TimeoutError(f"kernels not idle after {timeout} s: {self.api('api/kernels')}")

    def shut_down_kernels(self) -> None:
        """End every session and its kernel, so the next notebook starts alone. The server
        takes seconds over each shutdown, most of it waiting: it goes on in the background
        while the next notebook loads (kernels_idle ignores the kernels on their way out)."""
        sessions = self.api("api/sessions")
        leaving = {k["id"] for k in self.api("api/kernels")}
        self._leaving |= leaving

        def shut_down() -> None:
            try:
                for session in sessions:
                    self.api(f"api/sessions/{session['id']}", method="DELETE")
                for kernel in self.api("api/kernels"):
                    if kernel["id"] in leaving:
                        self.api(f"api/kernels/{kernel['id']}", method="DELETE")
            except OSError:
                pass  # the server is stopping: stop() ends what is left

        threading.Thread(target=shut_down, name="lab-kernel-shutdown", daemon=True).start()

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""

    def stop(self) -> None:
        """Shut the server down through its API (it stops its kernels), then make sure that
        neither it nor any kernel it started is left running."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                self.api("api/shutdown", method="POST")
            except OSError:
                pass
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGTERM)
                try:
                    self.proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.killpg(self.proc.pid, signal.SIGKILL)
                    self.proc.wait()
        for pid in leftover_processes(self.home):
            os.kill(pid, signal.SIGKILL)

    def __enter__(self) -> "JupyterLab":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def leftover_processes(home: Path) -> list[int]:
    """Processes whose command line mentions `home` (kernels get their connection file from
    the runtime folder there): only ones this server started."""
    marker, found = str(home).encode(), []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if marker in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found
