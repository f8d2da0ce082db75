"""Write issue 30's ten hostile shapes (``tests.hostile.SHAPES`` at the sizes of the issue's table,
``SHAPES_AT``) into a folder, one sub-folder each, and optionally time ``lint-configs FILE`` on each
under ``/usr/bin/time -v``.

Printed per shape: the file linted (the one that starts the expansion: the Helm template, the first
compose file, the script), and with ``--measure`` the user + system CPU seconds and maximum resident
set (MiB) as ``time -v`` reports them for the whole process, the exit code and the limits SGL004
names. ``--exe`` times another build (another checkout's ``lint-configs`` for a before/after table);
``--cpu-limit`` and ``--max-mib`` cap each run (a shape stopped there is printed as such).

    python scripts/hostile_shapes.py /tmp/shapes                    # write them
    python scripts/hostile_shapes.py /tmp/shapes --measure          # and time each
    python scripts/hostile_shapes.py /tmp/shapes --measure --exe OTHER/lint-configs --cpu-limit 30 --max-mib 2048

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


def measure(exe: str, base: Path, path: Path, cpu_limit: int, max_mib: int) -> str:
    """One ``/usr/bin/time -v EXE --format json PATH`` run in ``base`` (the shape's folder) as a table
    row. The run is capped at ``cpu_limit`` CPU seconds (not wall seconds: the machine may be shared)
    and ``max_mib`` of address space (a build without the budgets would take gigabytes)."""
    import os
    import resource
    import signal

    def limits() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (max_mib << 20, max_mib << 20))
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_limit, cpu_limit + 1))

    cmd = ["/usr/bin/time", "-v", exe, "--format", "json", str(path)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=base,
                            preexec_fn=limits, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=cpu_limit * 20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the linter too, not only time(1)
        proc.communicate()
        return f"> {cpu_limit * 20} s wall (stopped)"
    if re.search(r"Command terminated by signal (24|9)\b", err):  # SIGXCPU, then SIGKILL at the hard limit
        return f"> {cpu_limit} s CPU (stopped at the CPU limit)"
    if "MemoryError" in err or "MemoryError" in out:
        return f"MemoryError at the {max_mib} MiB cap (exit {proc.returncode})"

    def field(label: str) -> float:
        m = re.search(re.escape(label) + r":\s*([0-9.]+)", err)
        return float(m.group(1)) if m else float("nan")

    cpu = field("User time (seconds)") + field("System time (seconds)")
    mib = field("Maximum resident set size (kbytes)") / 1024
    named = sorted(set(re.findall(r"limit (MAX_[A-Z_]+)", out)))
    internal = out.count('"SGL000"')
    return (f"{cpu:5.2f} s CPU {mib:6.1f} MiB  exit {proc.returncode}  SGL000 {internal}  "
            f"{' '.join(named) or '(linted, no limit reached)'}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--measure", action="store_true", help="time lint-configs on each shape")
    ap.add_argument("--exe", default=str(Path(sys.executable).with_name("lint-configs")))
    ap.add_argument("--cpu-limit", type=int, default=60, help="CPU seconds of each run before it is stopped")
    ap.add_argument("--max-mib", type=int, default=2048, help="address-space cap of each run (MiB)")
    args = ap.parse_args()
    folder = args.folder.resolve()
    for name, path in write(folder).items():
        row = measure(args.exe, folder / name, path, args.cpu_limit, args.max_mib) if args.measure else ""
        print(f"{name:24} {name + '/' + path.as_posix():50} {row}".rstrip(), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
