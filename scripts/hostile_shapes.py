"""Write issue 30's ten hostile shapes (``tests.hostile.SHAPES`` at the sizes of the issue's table,
``SHAPES_AT``) into a folder, one sub-folder each, and optionally time ``lint-configs FILE`` on each
under ``/usr/bin/time -v``.

Printed per shape: the file linted (the one that starts the expansion: the Helm template, the first
compose file, the script), and with ``--measure`` the user + system CPU seconds and maximum resident
set (MiB) as ``time -v`` reports them for the whole process, the exit code and the limits SGL004
names. ``--exe`` times another build (``/work/main/.venv/bin/lint-configs`` for a before/after table);
``--timeout`` caps each run (a shape still running is printed as ``> N s``).

    python scripts/hostile_shapes.py /tmp/shapes                    # write them
    python scripts/hostile_shapes.py /tmp/shapes --measure          # and time each
    python scripts/hostile_shapes.py /tmp/shapes --measure --exe OTHER/lint-configs --timeout 30

Run ``python -m compileall -q linter`` first when ``PYTHONDONTWRITEBYTECODE`` is set: otherwise each
run compiles the changed modules again, which an installed copy never does.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.hostile import SHAPE_FILE, SHAPES, SHAPES_AT  # noqa: E402


def write(folder: Path) -> dict[str, Path]:
    """Write each shape into ``folder/<name>/``; returns name -> the file to lint (relative to the
    shape's folder, which is the run's working directory and root)."""
    linted = {}
    for name, size in SHAPES_AT.items():
        base = folder / name
        for rel, text in SHAPES[name](size).items():
            (base / rel).parent.mkdir(parents=True, exist_ok=True)
            (base / rel).write_text(text)
        linted[name] = Path(SHAPE_FILE[name])
    return linted


def measure(exe: str, base: Path, path: Path, timeout: float) -> str:
    """One ``/usr/bin/time -v EXE --format json PATH`` run in ``base`` (the shape's folder) as a table row."""
    cmd = ["/usr/bin/time", "-v", exe, "--format", "json", str(path)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=base)
    except subprocess.TimeoutExpired:
        return f"> {timeout:.0f} s (stopped)"

    def field(label: str) -> float:
        m = re.search(re.escape(label) + r":\s*([0-9.]+)", proc.stderr)
        return float(m.group(1)) if m else float("nan")

    cpu = field("User time (seconds)") + field("System time (seconds)")
    mib = field("Maximum resident set size (kbytes)") / 1024
    named = sorted(set(re.findall(r"limit (MAX_[A-Z_]+)", proc.stdout)))
    internal = proc.stdout.count('"SGL000"')
    return (f"{cpu:5.2f} s CPU {mib:6.1f} MiB  exit {proc.returncode}  SGL000 {internal}  "
            f"{' '.join(named) or '(linted, no limit reached)'}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--measure", action="store_true", help="time lint-configs on each shape")
    ap.add_argument("--exe", default=str(Path(sys.executable).with_name("lint-configs")))
    ap.add_argument("--timeout", type=float, default=60)
    args = ap.parse_args()
    folder = args.folder.resolve()
    for name, path in write(folder).items():
        row = measure(args.exe, folder / name, path, args.timeout) if args.measure else ""
        print(f"{name:24} {name + '/' + path.as_posix():50} {row}".rstrip(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
