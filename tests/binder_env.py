"""A virtual environment built from ``binder/requirements.txt`` alone: a stand-in for Binder's build.

``make test`` builds it while setting up (``python tests/binder_env.py``), as it builds ``.venv``: it is
cached under ``artifacts/`` by the hash of the pins, so it is rebuilt only when the pins change.  The
Binder test then runs ``binder/postBuild`` in it every time (so the package is current) and serves from it.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PINS = ROOT / "binder" / "requirements.txt"


def home() -> Path:
    """Where the environment for the current pins lives."""
    return ROOT / "artifacts" / f"binder-env-{hashlib.sha256(PINS.read_bytes()).hexdigest()[:16]}"


def build() -> Path:
    """The environment for the current pins, built first if it is missing (older ones are removed)."""
    folder = home()
    if not (folder / ".built").exists():
        shutil.rmtree(folder, ignore_errors=True)
        subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
        subprocess.run([str(folder / "bin" / "python"), "-m", "pip", "install", "--quiet",
                        "--disable-pip-version-check", "-r", str(PINS)], cwd=ROOT, check=True)
        (folder / ".built").touch()
    for old in folder.parent.glob("binder-env-*"):
        if old != folder:
            shutil.rmtree(old, ignore_errors=True)
    return folder


if __name__ == "__main__":
    print(f"Binder stand-in environment: {build().relative_to(ROOT)}")
