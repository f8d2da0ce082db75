"""Helpers shared by the tests: write a small repository, run the CLI in it, read the JSON."""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from pathlib import Path

from linter.cli import main

ROOT = Path(__file__).resolve().parent.parent

# The folded-command launch SGLang rejects: DeepSeek-V3, fa4 + deterministic, target H100 (tp 16: two
# nodes of H100, on which its weights fit).
FOLDED_H100 = """\
# lint-configs: target-gpu=H100
services:
  sglang:
    image: lmsysorg/sglang:v0.5.23-cu129
    command: >
      python3 -m sglang.launch_server
      --model-path deepseek-ai/DeepSeek-V3
      --tp 16
      --attention-backend fa4
      --enable-deterministic-inference
      --host 0.0.0.0 --port 30000
"""


def write_tree(root: Path, files: dict[str, str | bytes]) -> None:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_bytes(content.encode("utf-8"))


@contextmanager
def chdir(path: Path):
    old = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(old)


def lint_json(root: Path, capsys, *args: str) -> tuple[int, list[dict]]:
    """Run ``lint-configs --format json ARGS .`` in ``root``; (exit code, diagnostics)."""
    capsys.readouterr()
    with chdir(root):
        code = main(["--format", "json", *args, "."])
    out = capsys.readouterr().out
    return code, json.loads(out)


def run(root: Path, capsys, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    with chdir(root):
        code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def codes_at(diags: list[dict]) -> list[tuple[str, int, str]]:
    return sorted((d["path"], d["line"], d["code"]) for d in diags)
