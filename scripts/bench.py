"""Benchmark: each row of the speed goals (issues 21 and 37), this project beside the reference tool.

Usage::

    python scripts/bench.py [--runs R] [--rows compose,compose-cold,python,tree,tree-cold,dense,tree100k,shell,bigcompose]
                            [--python PATH] [--before PATH]
                            [--yamllint PATH] [--keep DIR]

Generates its inputs under a temporary folder (or ``--keep DIR``), then for each row runs this
project's command and the reference tool's command in turn (A B A B …, ``R`` rounds) and prints the
median CPU time (user + system of the finished child and the children it waited for, the operating
system's own accounting), the median peak RSS, and the median of the rounds' CPU ratios. With
``--before PYTHON`` (another install, e.g. of the main branch) each round runs that install's command
too (A B C A B C …), and each row shows both: before and after from one run, on the same machine
at the same time. The reference tools are installed for the benchmark only, never as dependencies:
``yamllint`` (``pip install yamllint`` in another environment; give its path with ``--yamllint``)
and ``grep``. Nothing is asserted: the goals are judged by reading the figures.

The ``warm`` rows run with the result cache (``linter/cache``) in a folder of this run outside the
inputs (``LINT_CONFIGS_CACHE_DIR``; the warm-up run fills it); the others with ``--no-cache`` (an
install without the cache runs every row cold). ``dense`` is 150 copies of ``examples/``: 2,400 files,
every one a launch file, beside yamllint over the same tree.

Measure a regular (not editable) install, as users and pre-commit have it: an editable install adds
its import finder to every start (~9 ms here). For example::

    python -m venv /tmp/bench && /tmp/bench/bin/pip install . yamllint
    python -m venv /tmp/before && /tmp/before/bin/pip install git+file://$PWD@main
    /tmp/bench/bin/python scripts/bench.py --yamllint /tmp/bench/bin/yamllint --before /tmp/before/bin/python

The children run with ``PYTHONDONTWRITEBYTECODE`` unset, so the warm-up run leaves the bytecode
cache an installed package normally has. The single-file rows run what the pre-commit hook runs
(``lint-configs --force-exclude FILE``, text output); the ``floor`` row is the interpreter starting
and importing the YAML library alone, the part of a YAML file's run no code of ours can remove.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMPOSE = """\
# lint-configs: target-gpu=H100
services:
  sglang:
    image: lmsysorg/sglang:v0.5.23-cu129
    command: >
      python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3
      --tp 8 --attention-backend {backend} --enable-deterministic-inference --host 0.0.0.0 --port 30000
    ports:
      - "30000:30000"
    ipc: host
    deploy:
      resources:
        reservations:
          devices:
            - driver: nvidia
              count: all
              capabilities: [gpu]
  redis:
    image: redis:7
    ports:
      - "6379:6379"
  web:
    image: nginx:1.27
    depends_on: [sglang, redis]
    volumes:
      - ./nginx.conf:/etc/nginx/nginx.conf:ro
"""

PYTHON = """\
import subprocess
import sys

MODEL = "deepseek-ai/DeepSeek-V3"
CMD = [sys.executable, "-m", "sglang.launch_server", "--model-path", MODEL, "--tp", "8",
       "--attention-backend", "{backend}", "--enable-deterministic-inference"]


def start() -> subprocess.Popen:
    return subprocess.Popen(CMD)


if __name__ == "__main__":
    start().wait()
"""

SHELL = """\
#!/bin/bash
#SBATCH --gres=gpu:h100:8
MODEL=deepseek-ai/DeepSeek-V3
python3 -m sglang.launch_server --model-path "$MODEL" --tp 8 --attention-backend {backend} \\
    --enable-deterministic-inference
"""

# Files that launch nothing, in the proportions of an infrastructure repository.
OTHERS = {
    "values.yaml": "replicaCount: {i}\nimage:\n  repository: nginx\n  tag: '1.27'\nservice:\n  type: ClusterIP\n"
                   "  port: 80\nresources:\n  limits:\n    cpu: 500m\n    memory: 128Mi\n",
    "deploy.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app{i}\nspec:\n  replicas: 2\n"
                   "  template:\n    spec:\n      containers:\n        - name: app\n          image: app:{i}\n",
    "main.tf": 'resource "aws_instance" "web{i}" {{\n  ami           = "ami-{i}"\n  instance_type = "t3.micro"\n}}\n',
    "setup.sh": "#!/bin/sh\nset -eu\nfor f in *.conf; do\n  cp \"$f\" /etc/app{i}/\ndone\nsystemctl restart app\n",
    "tool.py": "import os\n\n\ndef main(x):\n    return os.path.join('a', str(x + {i}))\n" * 4,
    "README.md": "# service {i}\n\nHow to deploy this service.\n" * 6,
    "config.json": '{{"name": "svc{i}", "port": 8080, "replicas": 2, "env": {{"A": "1"}}}}\n',
    "Makefile": "all:\n\tdocker build -t app{i} .\n",
    "compose.yaml": "services:\n  app:\n    image: app:{i}\n    ports: ['80:80']\n",
    "ci.yml": "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make test\n",
}
LAUNCHERS = (("docker-compose.yml", COMPOSE), ("serve.sh", SHELL), ("launch.py", PYTHON))


WALK_FLOOR = """
import os, re
pat = re.compile(rb"sglang|attention.backend")
def walk(d):
    with os.scandir(d) as it:
        for e in it:
            if e.is_dir(follow_symlinks=False):
                walk(e.path)
            elif e.is_file(follow_symlinks=False):
                with open(e.path, "rb") as f:
                    if pat.search(f.read()):
                        print(e.path)
walk(".")
"""
"""The least a Python tool can do on the tree row: walk it, read each file and search its bytes."""


def make_tree(root: Path, n: int, launch_share: float = 0.02) -> None:
    """``n`` files in folders of ten; ``launch_share`` of them launch SGLang."""
    names = list(OTHERS)
    every = round(1 / launch_share)
    for i in range(n):
        folder = root / f"team{i // 1000}" / f"svc{i // 10}"
        if i % 10 == 0:
            folder.mkdir(parents=True, exist_ok=True)
        if i % every == 0:
            name, text = LAUNCHERS[(i // every) % 3]
            (folder / name).write_text(text.replace("{backend}", "fa4" if i % 2 else "fa3"))
        else:
            name = names[i % len(names)]
            (folder / name).write_text(OTHERS[name].format(i=i))


def make_shell(path: Path, lines: int = 20_000, launches: int = 500) -> None:
    """A long shell script: helper functions, loops, variables and ``launches`` launches."""
    out = ["#!/bin/bash", "#SBATCH --gres=gpu:h100:8", "set -euo pipefail", 'MODEL="deepseek-ai/DeepSeek-V3"']
    for f in range(40):
        out += [f"helper_{f}() {{", f'  local x="$1"', f'  echo "helper {f} $x"', "}"]
    per = lines // launches
    for k in range(launches):
        block = [f"# job {k}", f"PORT_{k}=$((30000 + {k}))",
                 f"for i in 1 2 3; do helper_{k % 40} \"$i\"; done",
                 f"python3 -m sglang.launch_server --model-path \"$MODEL\" --port \"$PORT_{k}\" --tp 8 \\",
                 f"    --attention-backend {'fa4' if k % 2 else 'fa3'} --enable-deterministic-inference &"]
        while len(block) < per:
            block.append(f'echo "step {len(block)} of job {k}" >> "/tmp/log_{k}"')
        out += block
    path.write_text("\n".join(out) + "\n")


def make_big_compose(path: Path, services: int = 2000, size: int = 5_800_000) -> None:
    """One compose file of about ``size`` bytes with ``services`` services, each an SGLang launch."""
    pad = max(0, size // services - 600) // 40
    parts = ["services:"]
    for k in range(services):
        parts.append(
            f"  sglang-{k}:\n    image: lmsysorg/sglang:v0.5.23-cu129\n"
            f"    command: >\n      python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3\n"
            f"      --tp 8 --port {30000 + k % 1000} --attention-backend {'fa4' if k % 2 else 'fa3'}\n"
            f"      --enable-deterministic-inference\n"
            f"    deploy:\n      resources:\n        reservations:\n          devices:\n"
            f"            - driver: nvidia\n              device_ids: ['0', '1', '2', '3']\n"
            f"              capabilities: [gpu]\n    labels:\n"
            + "".join(f"      com.example.label{j}: 'value-{k}-{j:04d}'\n" for j in range(pad)))
    text = "\n".join(parts)
    path.write_text("# lint-configs: target-gpu=H100\n" + text)


CHILD_ENV = {k: v for k, v in os.environ.items()
             if k not in ("PYTHONDONTWRITEBYTECODE", "LINT_CONFIGS_NO_CACHE", "LINT_CONFIGS_CACHE_DIR", "CI")}


def run_once(cmd: list[str], cwd: Path, env: dict | None = None) -> tuple[float, float, float]:
    """(CPU seconds, peak RSS MiB, wall seconds) of one run of ``cmd`` (its output thrown away). The
    CPU time includes the children the command waited for (the linter's pool workers)."""
    began = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child: exec the command with its output discarded
        try:
            os.chdir(cwd)
            fd = os.open(os.devnull, os.O_RDWR)
            for std in (0, 1, 2):
                os.dup2(fd, std)
            os.execvpe(cmd[0], cmd, env or CHILD_ENV)
        finally:
            os._exit(127)
    _, status, usage = os.wait4(pid, 0)
    if cmd[1:3] == ["-m", "linter"] and status != 0:  # (it runs with --exit-zero: anything else is a failure)
        raise SystemExit(f"bench.py: {' '.join(cmd)} exited with status {os.waitstatus_to_exitcode(status)} "
                         f"in {cwd}: no figure is measured of a run that failed")
    return usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024, time.perf_counter() - began


def paired(a: list[str], b: list[str] | None, cwd: Path, runs: int, before: list[str] | None = None,
           env: dict | None = None) -> dict:
    """A (this install), B (the reference) and C (``before``, another install), in turn, ``runs`` rounds
    after one warm-up each (which also fills A's result cache); medians, and the median of each round's
    ratio to B. ``env``: A's environment (its cache folder)."""
    run_once(a, cwd, env)
    if b:
        run_once(b, cwd)
    if before:
        run_once(before, cwd)
    ca, ma, wa, cb, cc, mc, ratios, ratios_c = [], [], [], [], [], [], [], []
    for _ in range(runs):
        cpu, peak, wall = run_once(a, cwd, env)
        ca.append(cpu)
        ma.append(peak)
        wa.append(wall)
        cpu_b = None
        if b:
            cpu_b, _, _ = run_once(b, cwd)
            cb.append(cpu_b)
            ratios.append(cpu / cpu_b if cpu_b else float("inf"))
        if before:
            cpu_c, peak_c, _ = run_once(before, cwd)
            cc.append(cpu_c)
            mc.append(peak_c)
            if cpu_b is not None:
                ratios_c.append(cpu_c / cpu_b if cpu_b else float("inf"))
    med = statistics.median
    return {"a": med(ca), "peak": med(ma), "wall": med(wa), "b": med(cb) if cb else None,
            "ratio": med(ratios) if ratios else None, "c": med(cc) if cc else None, "peak_c": med(mc) if mc else None,
            "ratio_c": med(ratios_c) if ratios_c else None}


ROWS = ("compose", "compose-cold", "python", "tree", "tree-cold", "dense", "tree100k", "shell", "bigcompose")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--runs", type=int, default=5, help="paired runs per row (default 5; the large rows run half)")
    p.add_argument("--rows", default=",".join(ROWS),
                   help=f"comma-separated rows to run (default: all): {', '.join(ROWS)}")
    p.add_argument("--yamllint", default=shutil.which("yamllint") or "yamllint",
                   help="the yamllint to compare with (install it in another environment: not a dependency)")
    p.add_argument("--keep", type=Path, default=None, help="generate the inputs here (kept; reused if present)")
    p.add_argument("--python", default=sys.executable,
                   help="the interpreter of the install to measure (default: this one)")
    p.add_argument("--before", default=None, metavar="PYTHON",
                   help="the interpreter of another install (an earlier version) to measure in the same rounds: "
                        "each row then shows both (a version without the result cache runs every row cold)")
    opts = p.parse_args(argv)
    rows = opts.rows.split(",")
    for python in [opts.python] + ([opts.before] if opts.before else []):
        probe = subprocess.run([python, "-c", "import linter, sys; print(linter.__file__); "
                                "print(any('editable' in type(f).__module__ for f in sys.meta_path))"],
                               capture_output=True, text=True, env=CHILD_ENV, cwd=tempfile.gettempdir())
        where, editable = (probe.stdout.split("\n") + ["", ""])[:2]
        print(f"linter from {where}" + ("  (an EDITABLE install: its import finder adds to every start; "
                                        "measure a regular install, see this script's docstring)"
                                        if editable == "True" else ""))
    # (asked from a folder of no checkout: `python -m linter` in this one would import the checkout's code)
    has_cache = "--no-cache" in subprocess.run([opts.before, "-m", "linter", "--help"], capture_output=True,
                                               text=True, env=CHILD_ENV, cwd=tempfile.gettempdir()).stdout \
        if opts.before else False

    def cmd(python: str, *args: str, cold: bool = False, hook: bool = False) -> list[str]:
        """lint-configs of ``python`` (--no-cache when ``cold`` and that install has a cache)."""
        base = [python, "-m", "linter", "--exit-zero"]
        if cold and (python == opts.python or has_cache):
            base.append("--no-cache")
        base += ["--force-exclude"] if hook else ["--format", "concise"]  # the hook's text report, or one line each
        return base + list(args)

    grep = ["grep", "-rlE", "sglang|attention.backend", "."]
    root = opts.keep or Path(tempfile.mkdtemp(prefix="lint-configs-bench-"))
    root.mkdir(parents=True, exist_ok=True)
    made = root / ".made"
    if not made.exists():
        (root / "one").mkdir(exist_ok=True)
        (root / "one" / "docker-compose.yml").write_text(COMPOSE.replace("{backend}", "fa4"))
        (root / "one" / "launch.py").write_text(PYTHON.replace("{backend}", "fa4"))
        make_tree(root / "tree10k", 10_000)
        make_tree(root / "tree100k", 100_000)
        (root / "shell").mkdir(exist_ok=True)
        make_shell(root / "shell" / "jobs.sh")
        (root / "bigcompose").mkdir(exist_ok=True)
        make_big_compose(root / "bigcompose" / "docker-compose.yml")
        made.write_text("")
    dense = root / "dense"
    if not dense.exists() and ("dense" in rows):
        examples = Path(__file__).resolve().parent.parent / "examples"
        for k in range(150):  # 150 copies of examples/: 2,400 files, every one of them a launch file
            shutil.copytree(examples, dense / f"ex{k}")
    # The cache lives outside the inputs (grep must not search it), fresh for each run of this script.
    cache_dir = Path(tempfile.mkdtemp(prefix="lint-configs-bench-cache-"))
    env = dict(CHILD_ENV, LINT_CONFIGS_CACHE_DIR=str(cache_dir))
    before = opts.before
    print(f"inputs in {root}; {opts.runs} rounds each; CPU = user + system seconds, medians; ratio = the median "
          "of each round's CPU ratio to the reference")
    both = " (after / before)" if before else ""
    print(f"{'row':<52} {'lint-configs' + both:>22} {'reference':>10} {'ratio' + both:>16} {'peak MiB':>9} "
          f"{'wall':>7}")

    def show(name: str, r: dict, ref: str, note: str = "") -> None:
        b = f"{r['b']:.3f}s" if r["b"] is not None else "-"
        ratio = f"{r['ratio']:.2f}x" if r["ratio"] is not None else "-"
        a = f"{r['a']:.3f}s"
        peak = f"{r['peak']:.1f}"
        if r.get("c") is not None:
            a += f" / {r['c']:.3f}s"
            ratio += f" / {r['ratio_c']:.2f}x" if r.get("ratio_c") is not None else ""
            peak += f"/{r['peak_c']:.0f}"
        print(f"{name:<52} {a:>22} {b:>10} {ratio:>16} {peak:>9} {r['wall']:>6.3f}s   {ref}{note}")

    def row(a: list[str], b, cwd: Path, runs: int, c: list[str] | None) -> dict:
        return paired(a, b, cwd, runs, c, env)

    one = root / "one"
    results = {}
    if "compose" in rows:
        r = row(cmd(opts.python, "docker-compose.yml", hook=True), [opts.yamllint, "docker-compose.yml"], one,
                opts.runs, before and cmd(before, "docker-compose.yml", hook=True))
        show("one compose file, warm cache vs yamllint", r, "goal <= 0.6x")
    if "compose-cold" in rows:
        r = row(cmd(opts.python, "docker-compose.yml", cold=True, hook=True), [opts.yamllint, "docker-compose.yml"],
                one, opts.runs, before and cmd(before, "docker-compose.yml", cold=True, hook=True))
        show("one compose file, --no-cache vs yamllint", r, "goal <= 1.2x")
        # the YAML library a compose file is read with (linter/extract/yamlload.py: PyYAML's libyaml)
        r = row([opts.python, "-c", "import yaml"], [opts.yamllint, "docker-compose.yml"], one, opts.runs, None)
        show("  floor: python -c 'import yaml'", r, "(start-up + YAML library only)")
    if "python" in rows:
        r = row(cmd(opts.python, "launch.py", cold=True, hook=True),
                cmd(opts.python, "docker-compose.yml", cold=True, hook=True), one, opts.runs,
                before and cmd(before, "launch.py", cold=True, hook=True))
        show("one Python launch file vs one compose file (--no-cache)", r, "goal <= 1.5x")
    tree = root / "tree10k"
    if "tree" in rows:
        r = row(cmd(opts.python, "."), grep, tree, opts.runs, before and cmd(before, "."))
        show("10,000-file infrastructure tree, warm vs grep -rlE", r, "goal <= 3x")
    if "tree-cold" in rows or "tree100k" in rows:
        results["tree"] = r = row(cmd(opts.python, ".", cold=True), grep, tree, opts.runs,
                                  before and cmd(before, ".", cold=True))
        show("10,000-file infrastructure tree, --no-cache vs grep -rlE", r, "goal <= 8x")
        # the floor: the interpreter walking the tree and searching each file's bytes, nothing else
        r = row([opts.python, "-c", WALK_FLOOR], grep, tree, opts.runs, None)
        show("  floor: a bare Python walk + read + search", r, "(no linting at all)")
        # the pool's workers add CPU to cut wall time: one process is the like-for-like CPU figure
        r = row(cmd(opts.python, "--jobs", "1", ".", cold=True), grep, tree, opts.runs,
                before and cmd(before, "--jobs", "1", ".", cold=True))
        show("  the same, one process (--jobs 1)", r, "")
    if "dense" in rows:
        half = max(1, opts.runs // 2)
        r = row(cmd(opts.python, ".", cold=True), [opts.yamllint, "."], dense, half, before and cmd(before, ".", cold=True))
        show("150 x examples/ (2,400 launch files), --no-cache vs yamllint", r, "goal <= 0.5x (yamllint: its YAML files)")
        r = row(cmd(opts.python, "--jobs", "1", ".", cold=True), [opts.yamllint, "."], dense, half,
                before and cmd(before, "--jobs", "1", ".", cold=True))
        show("  the same, one process (--jobs 1)", r, "goal: the default no more than 5% slower (wall)")
    if "tree100k" in rows:
        big = row(cmd(opts.python, ".", cold=True), None, root / "tree100k", max(1, opts.runs // 2),
                  before and cmd(before, ".", cold=True))
        big["ratio"], big["b"] = big["a"] / results["tree"]["a"], results["tree"]["a"]
        if big.get("c") is not None and results["tree"].get("c"):
            big["ratio_c"] = big["c"] / results["tree"]["c"]
        show("100,000 files (--no-cache) vs the 10,000-file run", big, "goal <= 10x (linear), <= 150 MiB")
    if "shell" in rows:
        r = row(cmd(opts.python, "jobs.sh", cold=True), None, root / "shell", opts.runs,
                before and cmd(before, "jobs.sh", cold=True))
        show("20,000-line shell script, 500 launches (--no-cache)", r, "goal <= 0.5 s, <= 100 MiB")
    if "bigcompose" in rows:
        r = row(cmd(opts.python, "docker-compose.yml", cold=True), [opts.yamllint, "docker-compose.yml"],
                root / "bigcompose", max(1, opts.runs // 2), before and cmd(before, "docker-compose.yml", cold=True))
        show("5.8 MB compose file, 2,000 services (--no-cache)", r, "goal <= 1.5 s")
    shutil.rmtree(cache_dir, ignore_errors=True)
    if opts.keep is None:
        shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
