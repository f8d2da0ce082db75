"""CPU time and memory of each hostile input (``tests/hostile.py``: issue 26's cases and issue 30's
shapes).

Each case runs in its own process: the linter is imported and warmed up on a small launch file,
then ``lint-configs --format json .`` runs in a folder holding the case. Printed per case: CPU
seconds of that run, the growth of the peak resident set (MiB) over the warmed-up process, the exit
code, the codes reported and the limits SGL004 named. A case is capped at ``--timeout`` seconds and
2 GiB.

With ``--time-v`` each case is instead run as a whole ``lint-configs`` process under
``/usr/bin/time -v`` (start-up and imports included): printed are user + system CPU seconds and the
maximum resident set size (MiB) as ``time`` reports them.

``--shape NAME:N`` measures one of issue 30's shapes (``tests.hostile.SHAPES``) at size ``N`` (levels,
files, items); ``--shapes`` measures all of them at the sizes of the issue's table.

    python scripts/measure_hostile.py [--timeout 20] [--fix] [--time-v] [NAME ...]
    python scripts/measure_hostile.py --shapes --time-v
    python scripts/measure_hostile.py --shape shell-doubling:20 --shape shell-doubling:22
    python scripts/measure_hostile.py --steps examples tests /path/to/a/checkout   # what real files spend
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.hostile import ALL_SHAPES, CASES, HEAD, LAUNCH, SHAPES, SHAPES_AT  # noqa: E402

CHILD = r"""
import io, json, os, re, resource, sys, time, contextlib
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
named = sorted({m for d in diags if d.get("code") == "SGL004" for m in re.findall(r"limit (MAX_[A-Z_]+)", d["message"])})
print(json.dumps({"cpu": cpu, "mib": (peak - before) / 1024, "code": code, "internal": internal, "codes": codes,
                  "limits": named}))
"""


def _in_process(root: Path, warm: Path, fix: bool, timeout: float) -> dict:
    cmd = [sys.executable, "-c",
           "import resource; resource.setrlimit(resource.RLIMIT_AS, (2 << 30, 2 << 30))\n" + CHILD,
           str(root), str(warm), "1" if fix else "0"]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=ROOT,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {timeout} s"}
    line = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    return json.loads(line) if line.startswith("{") else {"error": proc.stderr.strip()[-300:]}


def _time_v(root: Path, fix: bool, timeout: float) -> dict:
    """``/usr/bin/time -v lint-configs --format json .`` in ``root``: CPU (user + system) and max RSS."""
    exe = Path(sys.executable).with_name("lint-configs")
    cmd = ["/usr/bin/time", "-v", str(exe) if exe.exists() else "lint-configs", "--format", "json"] + \
        (["--fix"] if fix else []) + ["."]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=root,
                              preexec_fn=lambda: __import__("resource").setrlimit(
                                  __import__("resource").RLIMIT_AS, (2 << 30, 2 << 30)))
    except subprocess.TimeoutExpired:
        return {"error": f"timeout after {timeout} s"}
    err = proc.stderr

    def field(label: str) -> float:
        m = re.search(re.escape(label) + r":\s*([0-9.]+)", err)
        return float(m.group(1)) if m else float("nan")

    try:
        diags = json.loads(proc.stdout)
    except ValueError:
        return {"error": (err.strip().splitlines() or ["no output"])[0][-300:]}
    named = sorted({m for d in diags if d.get("code") == "SGL004"
                    for m in re.findall(r"limit (MAX_[A-Z_]+)", d["message"])})
    return {"cpu": field("User time (seconds)") + field("System time (seconds)"),
            "mib": field("Maximum resident set size (kbytes)") / 1024, "code": proc.returncode,
            "internal": sum(1 for d in diags if d.get("code") == "SGL000"),
            "codes": sorted({d.get("code") for d in diags}), "limits": named}


def steps_of(paths: list[str], top: int) -> int:
    """Lint every file under ``paths`` in this process and print the budget each one spent (evaluator
    steps and expanded characters, :class:`linter.limits.Budget`) with its CPU time: the files that
    spend the most, and the total. Real files must stay far below the limits."""
    import time

    from linter import limits
    from linter.config import ConfigResolver
    from linter.discover import walk
    from linter.engine import Engine, RunOptions
    from linter.isolate import lint_file
    from linter.workspace import Workspace

    made: list = []
    real_init = limits.Budget.__init__

    def init(self) -> None:
        real_init(self)
        made.append(self)

    limits.Budget.__init__ = init
    rows = []
    for root in paths:
        base = Path(root).resolve()
        engine = Engine(Workspace(base if base.is_dir() else base.parent), RunOptions(), ConfigResolver())
        for cand in walk([base], lambda p, d: False, False):
            made.clear()
            t0 = time.process_time()
            res = lint_file(engine, cand.path)
            cpu = time.process_time() - t0
            if made:
                b = max(made, key=lambda x: x.steps)
                codes = sorted({d.code for d in res.diagnostics if d.code in ("SGL000", "SGL004")})
                rows.append((b.steps, max(x.chars for x in made), cpu, str(cand.path), codes))
    limits.Budget.__init__ = real_init
    rows.sort(reverse=True)
    print(f"{len(rows)} files linted; limits: {limits.MAX_EVAL_STEPS:,} steps, {limits.MAX_EXPANDED_CHARS:,} characters")
    for steps, chars, cpu, path, codes in rows[:top]:
        print(f"{steps:9,} steps {chars:10,} chars {cpu:6.2f} s  {path}  {' '.join(codes)}")
    if rows:
        by_chars = max(rows, key=lambda r: r[1])
        print(f"most characters: {by_chars[1]:,} in {by_chars[3]}")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("names", nargs="*")
    ap.add_argument("--timeout", type=float, default=20)
    ap.add_argument("--fix", action="store_true")
    ap.add_argument("--time-v", action="store_true", help="whole process under /usr/bin/time -v")
    ap.add_argument("--shape", action="append", default=[], metavar="NAME:N", help="an issue 30 shape at size N")
    ap.add_argument("--shapes", action="store_true", help="every issue 30 shape at the size of the issue's table")
    ap.add_argument("--steps", nargs="+", metavar="PATH", help="the budget real files spend (see steps_of)")
    ap.add_argument("--top", type=int, default=15)
    args = ap.parse_args()
    if args.steps:
        return steps_of(args.steps, args.top)
    cases: dict[str, dict[str, str]] = {}
    for spec in args.shape:
        name, n = spec.rsplit(":", 1)
        cases[f"{name}:{n}"] = ALL_SHAPES[name](int(n))
    if args.shapes:
        cases.update({f"{name}:{n}": SHAPES[name](n) for name, n in SHAPES_AT.items()})
    if args.names or not cases:
        cases.update({k: v for k, v in CASES.items() if not args.names or k in args.names})
    worst_cpu = worst_mib = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        warm = Path(tmp, "warm")
        warm.mkdir()
        (warm / "compose.yaml").write_text(HEAD + "    command: " + LAUNCH + "\n")
        for k, (name, files) in enumerate(cases.items()):
            root = Path(tmp, f"case{k}")
            for rel, text in files.items():
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                (root / rel).write_text(text)
            info = _time_v(root, args.fix, args.timeout) if args.time_v else \
                _in_process(root, warm, args.fix, args.timeout)
            if "cpu" in info:
                worst_cpu = max(worst_cpu, info["cpu"])
                worst_mib = max(worst_mib, info["mib"])
                sign = "" if args.time_v else "+"
                print(f"{name:28} cpu {info['cpu']:6.2f} s  {sign}{info['mib']:7.1f} MiB  exit {info['code']}  "
                      f"internal {info['internal']}  {' '.join(info['codes'])}  {' '.join(info['limits'])}".rstrip(),
                      flush=True)
            else:
                print(f"{name:28} FAILED: {info['error']}", flush=True)
    print(f"worst cpu {worst_cpu:.2f} s, worst memory {worst_mib:.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
