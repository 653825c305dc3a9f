"""Run benchmark scripts on an older commit and on this tree, interleaved in one run, and print both.

    python tools/bench_side_by_side.py [--new-scripts] [--rounds N] OLD_REV bench_tables_ui.py --quick -- bench_aspens_ui.py --quick

The older commit is checked out in a temporary git worktree; each side imports its own ``widgets/``
(``PYTHONPATH``) and runs its own copy of the script, in the order old, new, new, old (rounds > 1 repeat
it), so that a machine getting slower or faster during the run weighs on both sides alike.  The figures
are printed as each script prints them; the ratios are for the reader (machines differ from one session
to the next, so only figures from the same run are compared).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def scripts_from(words: list[str]) -> list[list[str]]:
    """``a.py --x -- b.py`` -> [[a.py, --x], [b.py]]."""
    groups, current = [], []
    for word in words:
        if word == "--":
            if current:
                groups.append(current)
            current = []
        else:
            current.append(word)
    return groups + ([current] if current else [])


def run(tree: Path, script: list[str], scripts: Path) -> tuple[float, str]:
    """One benchmark script (from the ``scripts`` tree) on one tree's package: (seconds, its output)."""
    env = dict(os.environ, PYTHONPATH=str(tree / "widgets"))
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, str(scripts / "benchmarks" / script[0]), *script[1:]], cwd=tree, env=env,
                          capture_output=True, text=True)
    out = done.stdout + (f"\n[exit {done.returncode}]\n{done.stderr[-2000:]}" if done.returncode else "")
    return time.perf_counter() - t0, out


def main() -> None:
    """Check out OLD_REV, then run every script old/new/new/old and print the outputs."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old")
    parser.add_argument("--rounds", type=int, default=1, help="repeat the old/new/new/old order")
    parser.add_argument("--new-scripts", action="store_true",
                        help="run this tree's scripts on both sides (when the old ones no longer match the page)")
    parser.add_argument("scripts", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="treegames-old-") as folder:
        old = Path(folder) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(old), args.old], cwd=ROOT, check=True)
        try:
            sides = {"old": old, "new": ROOT}
            head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                  text=True).stdout.strip()
            print(f"old = {args.old}, new = {head} (+ working tree); scripts from "
                  f"{'the new tree' if args.new_scripts else 'each side'}", flush=True)
            for script in scripts_from(args.scripts):
                for _ in range(args.rounds):
                    for side in ("old", "new", "new", "old"):
                        scripts = ROOT if args.new_scripts else sides[side]
                        seconds, out = run(sides[side], script, scripts)
                        print(f"\n##### {side} {' '.join(script)} ({seconds:.0f} s)\n{out}", flush=True)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=ROOT, check=False)


if __name__ == "__main__":
    main()
