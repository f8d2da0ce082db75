"""Benchmark: start-up time, throughput on a generated infrastructure tree, and peak memory.

Prints figures; it asserts nothing (targets are judged by reading them). Usage:
    python scripts/bench.py [--files N] [--runs R]
It generates N files (compose, shell, Python and unrelated YAML/text, a third of them with SGLang
launches) under a temporary folder and times ``python -m linter`` over it as a user would run it.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMPOSE = ("# lint-configs: target-gpu=H100\nservices:\n  s{i}:\n    image: lmsysorg/sglang:v0.5.23-cu129\n"
           "    command: >\n      python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3\n"
           "      --tp 8 --attention-backend {backend} --enable-deterministic-inference\n")
SHELL = ("#!/bin/bash\n#SBATCH --gres=gpu:h100:8\nMODEL=deepseek-ai/DeepSeek-V3\n"
         "python3 -m sglang.launch_server --model-path \"$MODEL\" --attention-backend {backend} "
         "--enable-deterministic-inference\n")
PYTHON = ("import subprocess\n\nCMD = ['python3', '-m', 'sglang.launch_server', '--model-path', "
          "'deepseek-ai/DeepSeek-V3', '--attention-backend', '{backend}', '--enable-deterministic-inference']\n\n"
          "def start():\n    return subprocess.Popen(CMD)\n")
OTHER = "name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps: [{{run: make test}}]\n"


def make_tree(root: Path, n: int) -> None:
    for i in range(n):
        backend = "fa4" if i % 2 else "fa3"
        kind = i % 6
        folder = root / f"team{i % 17}" / f"svc{i}"
        folder.mkdir(parents=True, exist_ok=True)
        if kind == 0:
            (folder / "docker-compose.yml").write_text(COMPOSE.format(i=i, backend=backend))
        elif kind == 1:
            (folder / "serve.sh").write_text(SHELL.format(backend=backend))
        elif kind == 2:
            (folder / "launch.py").write_text(PYTHON.format(backend=backend))
        elif kind == 3:
            (folder / "workflow.yml").write_text(OTHER)
        elif kind == 4:
            (folder / "README.md").write_text("# service\n" * 20)
        else:
            (folder / "util.py").write_text("def f(x):\n    return x + 1\n" * 30)


def timed(cmd: list[str], cwd: Path, runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return statistics.median(times), min(times)


def peak_rss_kib(cmd: list[str], cwd: Path) -> int:
    import resource

    subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--files", type=int, default=600)
    p.add_argument("--runs", type=int, default=5)
    opts = p.parse_args(argv)
    cmd = [sys.executable, "-m", "linter", "--exit-zero", "--format", "concise", "."]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        empty = root / "empty"
        empty.mkdir()
        med, best = timed(cmd, empty, opts.runs)
        print(f"start-up (empty folder):            median {med * 1000:7.1f} ms   best {best * 1000:7.1f} ms")
        one = root / "one"
        one.mkdir()
        (one / "docker-compose.yml").write_text(COMPOSE.format(i=0, backend="fa4"))
        med, best = timed(cmd, one, opts.runs)
        print(f"one compose file (pre-commit case):  median {med * 1000:7.1f} ms   best {best * 1000:7.1f} ms")
        tree = root / "tree"
        tree.mkdir()
        make_tree(tree, opts.files)
        med, best = timed(cmd, tree, opts.runs)
        print(f"tree of {opts.files} files:               median {med * 1000:7.1f} ms   best {best * 1000:7.1f} ms"
              f"   ({opts.files / med:,.0f} files/s)")
        print(f"peak RSS over the tree:              {peak_rss_kib(cmd, tree) / 1024:7.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
