"""Rewrite the output snapshots in ``tests/snapshots/``: for every rule, what lint-configs prints for
its cases (each launch rule's INVALID examples; files for SGL000–SGL005) in the text, concise and
github formats at 100 columns (``tests/snapshot_cases.py`` says how). Run it after changing what is
printed, and review the diff: it is the change users will read.

``--check`` changes nothing and exits 1 when a snapshot is out of date (``tests/test_snapshots.py``
runs the same comparison). Snapshots of rules that no longer exist are removed.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from tests.snapshot_cases import SNAPSHOTS, planned  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    from update_readme import sync

    check = "--check" in (argv if argv is not None else sys.argv[1:])
    files = planned()
    stale = sorted(p for p in SNAPSHOTS.glob("*.txt") if p not in files) if SNAPSHOTS.is_dir() else []
    return sync(files, stale, check)


if __name__ == "__main__":
    raise SystemExit(main())
