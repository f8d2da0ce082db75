"""CPU time and memory of each hostile input of issue 26 (``tests/hostile.py``).

Each case runs in its own process: the linter is imported and warmed up on a small launch file,
then ``lint-configs --format json .`` runs in a folder holding the case. Printed per case: CPU
seconds of that run, the growth of the peak resident set (MiB) over the warmed-up process, the exit
code, and whether an internal error was reported. A case is capped at ``--timeout`` seconds and 2 GiB.

    python scripts/measure_hostile.py [--timeout 20] [--fix] [NAME ...]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.hostile import CASES, HEAD, LAUNCH  # noqa: E402

CHILD = r"""
import io, json, os, resource, sys, time, contextlib
from linter.cli import main
root, warm, fix = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
with contextlib.redirect_stdout(io.StringIO()):
    os.chdir(warm); main(["--format", "json", "."])
os.chdir(root)
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
t0 = time.process_time()
out = io.StringIO()
with contextlib.redirect_stdout(out):
    code = main(["--format", "json"] + (["--fix"] if fix else []) + ["."])
cpu = time.process_time() - t0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    diags = json.loads(out.getvalue())
except ValueError:
    diags = []
internal = sum(1 for d in diags if d.get("code") == "SGL000")
codes = sorted({d.get("code") for d in diags})
print(json.dumps({"cpu": cpu, "mib": (peak - before) / 1024, "code": code, "internal": internal, "codes": codes}))
"""


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("names", nargs="*")
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--fix", action="store_true")
    args = ap.parse_args()
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        warm = Path(tmp, "warm")
        warm.mkdir()
        (warm / "compose.yaml").write_text(HEAD + "    command: " + LAUNCH + "\n")
        for name, files in CASES.items():
            if args.names and name not in args.names:
                continue
            root = Path(tmp, name)
            for rel, text in files.items():
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                (root / rel).write_text(text)
            cmd = [sys.executable, "-c",
                   "import resource; resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))\n" + CHILD,
                   str(root), str(warm), "1" if args.fix else "0"]
            try:
                proc = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout, cwd=ROOT,
                                      env={**os.environ, "PYTHONPATH": str(ROOT)})
                line = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
                info = json.loads(line) if line.startswith("{") else {"error": proc.stderr.strip()[-300:]}
            except subprocess.TimeoutExpired:
                info = {"error": f"timeout after {args.timeout} s"}
            if "cpu" in info:
                worst = max(worst, info["cpu"])
                print(f"{name:28} cpu {info['cpu']:6.2f} s  +{info['mib']:7.1f} MiB  exit {info['code']}  "
                      f"internal {info['internal']}  {' '.join(info['codes'])}")
            else:
                print(f"{name:28} FAILED: {info['error']}")
    print(f"worst cpu {worst:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
