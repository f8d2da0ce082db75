"""Save, then compare, what lint-configs prints over some trees: a guard for speed work.

Usage::

    python scripts/same_output.py save  SNAPSHOT_DIR [--cmd CMD] [TREE ...]
    python scripts/same_output.py check SNAPSHOT_DIR [--cmd CMD] [TREE ...]

For each TREE (default: this checkout's ``examples/`` and ``tests/fixtures``, ``tests/data``) it runs
``CMD --no-cache --exit-zero`` from inside the tree on ``.`` once per report: ``text``, ``full``,
``json``, ``sarif``, ``--list-launches --format json`` and ``--diff --unsafe-fixes`` in one process
(``--jobs 1``), and ``json`` again with two workers (the output must not depend on them), and keeps
stdout, stderr and the exit status. ``save`` writes them under SNAPSHOT_DIR; ``check`` runs them again and prints every report that
differs (exit 1), else ``same: N reports``. Nothing is judged but byte equality: speed work must not
change a byte of what users see. CMD defaults to ``lint-configs`` beside this interpreter.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
REPORTS = {
    "text": ["--format", "text", "--jobs", "1"],
    "full": ["--format", "full", "--jobs", "1"],
    "json": ["--format", "json", "--jobs", "1"],
    "sarif": ["--format", "sarif", "--jobs", "1"],
    "launches": ["--list-launches", "--format", "json", "--jobs", "1"],
    "diff": ["--diff", "--unsafe-fixes", "--jobs", "1"],
    "json-pool": ["--format", "json", "--jobs", "2"],
}
ENV = {k: v for k, v in os.environ.items() if not k.startswith(("LINT_CONFIGS", "GITHUB_", "GITLAB_"))
       and k not in ("CI", "FORCE_COLOR")}
ENV.update(NO_COLOR="1", COLUMNS="120", TERM="dumb")


def run(cmd: list[str], tree: Path, args: list[str]) -> bytes:
    """One report over ``tree``: stdout, stderr and the exit status, as bytes."""
    p = subprocess.run(cmd + ["--no-cache", "--exit-zero"] + args + ["."], cwd=tree, capture_output=True, env=ENV)
    return p.stdout + b"\n--- stderr ---\n" + p.stderr + f"\n--- exit {p.returncode} ---\n".encode()


def key(tree: Path, report: str) -> str:
    """The snapshot file name of one tree's report."""
    return f"{tree.name}-{hashlib.sha1(str(tree).encode()).hexdigest()[:8]}-{report}.out"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("action", choices=("save", "check"))
    p.add_argument("snapshots", type=Path)
    p.add_argument("trees", nargs="*", type=Path)
    p.add_argument("--cmd", default=str(Path(sys.executable).parent / "lint-configs"))
    opts = p.parse_intermixed_args(argv)
    trees = [t.resolve() for t in opts.trees] or [HERE / "examples", HERE / "tests" / "fixtures", HERE / "tests" / "data"]
    cmd = opts.cmd.split()
    opts.snapshots.mkdir(parents=True, exist_ok=True)
    differ = 0
    for tree in trees:
        for report, args in REPORTS.items():
            out = run(cmd, tree, args)
            path = opts.snapshots / key(tree, report)
            if opts.action == "save":
                path.write_bytes(out)
                continue
            old = path.read_bytes()
            if old != out:
                differ += 1
                print(f"DIFFERS: {tree} {report}")
                sys.stdout.writelines(list(difflib.unified_diff(
                    old.decode(errors="replace").splitlines(True), out.decode(errors="replace").splitlines(True),
                    "saved", "now", n=1))[:40])
    n = len(trees) * len(REPORTS)
    print(f"saved: {n} reports" if opts.action == "save" else (f"{differ} of {n} reports differ" if differ
                                                                  else f"same: {n} reports"))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
