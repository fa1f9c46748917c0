"""What the browser tests need from this machine: the system Chromium (Playwright's own
browser download is not used; `./dev` installs Debian's `chromium` where it can), the Python
packages, and what is missing when a test has to be skipped."""

from __future__ import annotations

import importlib.util
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
TIMEOUT_MS = 90_000  # Playwright's wait for any one element or action

MISSING = [name for name in ("playwright", "jupyterlab", "jupyterlab_widgets", "ipywidgets")
           if importlib.util.find_spec(name) is None]


def why_not() -> str:
    """Why the browser tests cannot run here ("" when they can)."""
    if MISSING:
        return f"not installed: {', '.join(MISSING)} (./dev test installs the dev and notebook extras)"
    if not CHROMIUM.exists():
        return f"no {CHROMIUM}: install Debian's chromium (apt-get install chromium; ./dev does it when run as root)"
    return ""
